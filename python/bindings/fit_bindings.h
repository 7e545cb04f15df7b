#pragma once
#include <pybind11/pybind11.h>

namespace softfit::python {

// softfit.load_capture and softfit.fit (the `softfit fit` driver with a per-iteration
// Python callback).
void bindFit(pybind11::module_& m);

}  // namespace softfit::python
