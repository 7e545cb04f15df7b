#include "python/bindings/python_errors.h"

#include "forward/errors.h"

namespace softfit::python {

void bindErrors(pybind11::module_& m) {
  pybind11::register_exception<InputError>(m, "InputError", PyExc_ValueError);
  pybind11::register_exception<SolveError>(m, "SolveError", PyExc_RuntimeError);
}

}  // namespace softfit::python
