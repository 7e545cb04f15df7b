#pragma once
// `softfit fit --bootstrap-steps K`: parametric-bootstrap bias correction of a point-cloud
// fit (optim/bootstrap_bias.h). Each step re-simulates the scene at the current
// parameters, renders it with the capture's cameras and fresh Gaussian noise of the known
// sigma (`replicates` noise draws per point in ONE capture, which averages the
// re-estimate's own noise), fits that synthetic capture exactly as the real one was
// fitted, and moves the parameters by the difference between the real fit and the
// re-estimate. With `refits` M > 1 a step renders M captures with their own noise seeds
// (bootstrap_refits.h), fits each, and takes the mean of the M re-estimates.
//
// Over processes (WorkDistribution): step k needs step k-1's estimate, so the steps run
// one after another; within a step the M refits x N multi-starts are independent tasks,
// spread over the processes (task t: refit t / N, start t % N). Every process gets every
// result, so all go on from the same estimate, the same bits for any process count.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "apps/commands/multi_start_run.h"
#include "apps/distribute/work_distribution.h"
#include "scene/scene_builder.h"
#include "observations/camera.h"
#include "observations/capture.h"
#include "optim/fit_problem.h"
#include "optim/report/fit_report.h"

namespace softfit::apps {

struct CaptureBootstrapOptions {
  int steps = 0;             // bootstrap steps (0 = none)
  int replicates = 4;        // noise draws per rendered point in a synthetic capture
  int refits = 1;            // independent synthetic captures fitted per step (averaged)
  double sigma = 0.0;        // noise sigma of the synthetic captures (m), > 0
  std::vector<Camera> cameras;  // the cameras the capture was taken with
  std::uint64_t seed = 1000; // noise seed of step k, refit j: bootstrapNoiseSeed(seed, steps, k, j)
  int stride = 1;            // simulation steps per captured frame
  int frames = 0;            // captured frames (the synthetic captures must match)
};

// Checked options before any fit runs: reads the camera file; throws InputError for
// steps < 0, replicates < 1, refits < 1, refits x starts (the multi-start's) beyond an
// int, sigma <= 0 (naming --noise-sigma) or a missing/invalid camera file (naming it).
CaptureBootstrapOptions makeCaptureBootstrapOptions(int steps, int replicates, int refits, int starts, double sigma,
                                                    const std::string& camerasPath, const Capture& capture, int stride);

// How a step fits a synthetic capture: the real fit's starts (internal coordinates).
struct BootstrapRefitter {
  std::vector<VecX> starts;
  // Start `start` of refit `refit`'s fit of `capture`, run on this process. The fit
  // problem holds the step's parameters when it is called (FitProblem::withLoss copies them).
  std::function<OptimizationResult(const Capture& capture, int refit, int start)> fitStart;
  // Called on every process for every refit, in refit order, once its starts are done.
  std::function<void(int refit, const MultiStartRun& run)> report;
};

// `estimate` = the plain fit's internal point. Returns the corrected internal point;
// fills `summary` (physical values). Leaves the problem at the corrected parameters. A
// refit whose best start hit a failed forward solve is reported and left out of the
// step's mean; when every refit of a step failed, the step uses their best points so far
// and `solveFailed` is set (the run exits 3, as for a failed plain fit). Throws
// InputError when a synthetic capture's frame count differs from the real one.
VecX bootstrapCaptureFit(const BuiltScene& scene, FitProblem& problem, const VecX& estimate,
                         const CaptureBootstrapOptions& options, const BootstrapRefitter& refitter,
                         WorkDistribution& distribution, FitBootstrapSummary& summary, bool& solveFailed);

}  // namespace softfit::apps
