#pragma once
// `softfit fit --bootstrap-steps K`: parametric-bootstrap bias correction of a point-cloud
// fit (optim/bootstrap_bias.h). Each step re-simulates the scene at the current
// parameters, renders it with the capture's cameras and fresh Gaussian noise of the known
// sigma (`replicates` noise draws per point, which averages the re-estimate's own
// noise), fits that synthetic capture exactly as the real one was fitted, and moves the
// parameters by the difference between the real fit and the re-estimate.
#include <cstdint>
#include <functional>
#include <string>

#include "scene/scene_builder.h"
#include "observations/camera.h"
#include "observations/capture.h"
#include "optim/fit_problem.h"
#include "optim/report/fit_report.h"

namespace softfit::apps {

struct CaptureBootstrapOptions {
  int steps = 0;             // bootstrap steps (0 = none)
  int replicates = 4;        // noise draws per rendered point in a synthetic capture
  double sigma = 0.0;        // noise sigma of the synthetic captures (m), > 0
  std::vector<Camera> cameras;  // the cameras the capture was taken with
  std::uint64_t seed = 1000; // noise seed of step k: seed + k
  int stride = 1;            // simulation steps per captured frame
  int frames = 0;            // captured frames (the synthetic captures must match)
};

// Checked options before any fit runs: reads the camera file; throws InputError for
// steps < 0, replicates < 1, sigma <= 0 (naming --noise-sigma) or a missing/invalid
// camera file (naming it).
CaptureBootstrapOptions makeCaptureBootstrapOptions(int steps, int replicates, double sigma,
                                                    const std::string& camerasPath, const Capture& capture, int stride);

// `estimate` = the plain fit's internal point; `fitCapture(capture)` fits a capture from
// the plain fit's start and returns the internal point. Returns the corrected internal
// point; fills `summary` (physical values). Leaves the problem at the corrected parameters.
// Throws InputError when a synthetic capture's frame count differs from the real one.
VecX bootstrapCaptureFit(const BuiltScene& scene, FitProblem& problem, const VecX& estimate,
                         const CaptureBootstrapOptions& options,
                         const std::function<VecX(const Capture&)>& fitCapture, FitBootstrapSummary& summary);

}  // namespace softfit::apps
