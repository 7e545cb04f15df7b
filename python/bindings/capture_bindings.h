#pragma once
#include <pybind11/pybind11.h>

namespace softfit::python {

// softfit.synth (synth/synthetic_capture.h, what `softfit synth` runs) and
// softfit.reconstruct (a raw depth capture -> fit-ready scene, observations and report;
// reconstruct/reconstruction.h, what `softfit reconstruct` runs).
void bindCaptures(pybind11::module_& m);

}  // namespace softfit::python
