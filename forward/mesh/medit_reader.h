#pragma once
// Reader for ASCII MEDIT .mesh files (MeshVersionFormatted / Dimension 3 / Vertices /
// Tetrahedra, 1-based indices; other sections are skipped).
#include <string>

#include "forward/mesh/tet_mesh.h"

namespace softfit {

// Returns the mesh with .source = path; all vertices of the file are kept in order.
// Throws InputError "<path>:<line>: ..." for a missing file, unsupported version or
// dimension, malformed or truncated sections, out-of-range indices, and (via
// validateTetMesh) inverted or degenerate tets.
TetMesh readMeditMesh(const std::string& path);

}  // namespace softfit
