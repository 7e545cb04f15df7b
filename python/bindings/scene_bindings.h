#pragma once
#include <pybind11/pybind11.h>

namespace softfit::python {

// softfit.Scene: load, simulate, parameters by name, trajectory gradients.
void bindScene(pybind11::module_& m);

}  // namespace softfit::python
