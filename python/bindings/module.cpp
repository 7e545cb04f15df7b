// The compiled part of the softfit Python package (python/softfit/ wraps it).
#include <pybind11/pybind11.h>

#include "python/bindings/face_bindings.h"
#include "python/bindings/fit_bindings.h"
#include "python/bindings/python_errors.h"
#include "python/bindings/capture_bindings.h"
#include "python/bindings/scene_bindings.h"

PYBIND11_MODULE(_softfit, m) {
  m.doc() = "softfit: differentiable simulation of elastic solids (C++ core)";
  softfit::python::bindErrors(m);
  softfit::python::bindScene(m);
  softfit::python::bindFit(m);
  softfit::python::bindFace(m);
  softfit::python::bindCaptures(m);
}
