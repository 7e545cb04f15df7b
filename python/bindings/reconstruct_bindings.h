#pragma once
#include <pybind11/pybind11.h>

namespace softfit::python {

// softfit.reconstruct: a raw depth capture -> fit-ready scene, observations and report
// (reconstruct/reconstruction.h, what `softfit reconstruct` runs).
void bindReconstruct(pybind11::module_& m);

}  // namespace softfit::python
