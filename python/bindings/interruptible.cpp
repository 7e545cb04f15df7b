#include "python/bindings/interruptible.h"

namespace softfit::python {

void checkInterrupt() {
  pybind11::gil_scoped_acquire acquire;
  if (PyErr_CheckSignals() != 0) throw Interrupted{};
}

}  // namespace softfit::python
