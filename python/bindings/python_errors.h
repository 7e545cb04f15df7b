#pragma once
// softfit's C++ errors as Python exceptions: InputError -> softfit.InputError (a
// ValueError), SolveError -> softfit.SolveError (a RuntimeError), same messages.
#include <pybind11/pybind11.h>

namespace softfit::python {

void bindErrors(pybind11::module_& m);

}  // namespace softfit::python
