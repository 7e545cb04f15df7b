#pragma once
// Fixture of the layering self-test (tests/CMakeLists.txt): forward/ must not include
// grid/, so cmake/CheckLayering.cmake has to reject this file.
#include "grid/cut_cell_grid.h"
#include "forward/types.h"
