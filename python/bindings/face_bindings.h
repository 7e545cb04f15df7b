#pragma once
#include <pybind11/pybind11.h>

namespace softfit::python {

// softfit.FaceModel: the face model's quasi-static solve and its activation fits.
void bindFace(pybind11::module_& m);

}  // namespace softfit::python
