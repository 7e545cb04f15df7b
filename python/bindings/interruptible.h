#pragma once
// Long C++ runs with the GIL released that still answer Ctrl-C: a hook called from the
// run (per step, per frame) takes the GIL for a moment and asks Python whether a signal
// handler raised (PyErr_CheckSignals); if so it throws Interrupted, which unwinds the C++
// run, and runWithoutGil rethrows the pending Python error (KeyboardInterrupt).
#include <pybind11/pybind11.h>

#include <utility>

namespace softfit::python {

struct Interrupted {};

// Called from inside a run without the GIL: throws Interrupted when a Python signal
// handler raised (the Python error stays set for runWithoutGil to rethrow).
void checkInterrupt();

// Runs f() with the GIL released; an Interrupted from checkInterrupt() becomes the
// pending Python exception (KeyboardInterrupt on Ctrl-C).
template <class F>
auto runWithoutGil(F&& f) -> decltype(f()) {
  try {
    pybind11::gil_scoped_release release;
    return std::forward<F>(f)();
  } catch (const Interrupted&) {
    throw pybind11::error_already_set();
  }
}

}  // namespace softfit::python
