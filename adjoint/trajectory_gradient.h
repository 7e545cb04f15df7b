#pragma once
// Exact gradient of a trajectory loss with respect to every physical parameter and the
// initial state, by a hand-written reverse pass over the stored trajectory (adjoint
// method, docs/theory.rst, section 3).
#include "adjoint/checkpointing.h"
#include "adjoint/trajectory_loss.h"
#include "forward/registry/simulate.h"

namespace softfit {

struct TrajectoryGradient {
  double loss = 0.0;
  ModelGradient parameters;
  VecX initialX, initialV;  // dL/dx_0, dL/dv_0
  CheckpointStatistics checkpoints;
};

// Runs the forward simulation of `setup`, evaluates the loss and returns its gradient.
// A failed forward or adjoint solve throws SolveError: no gradient is returned for a
// trajectory that was not computed. An invalid setup throws InputError.
TrajectoryGradient trajectoryGradient(const TrajectorySetup& setup, TrajectoryLoss& loss,
                                      const CheckpointOptions& checkpoints = {});

// Only the loss (forward pass), for finite differences and line searches.
double trajectoryLoss(const TrajectorySetup& setup, TrajectoryLoss& loss);
// The residuals of a least-squares loss (TrajectoryLoss::hasResiduals) over the forward
// pass, frame by frame: the loss is 1/2 |r|^2. InputError for a loss without them;
// SolveError when a step fails.
VecX trajectoryResiduals(const TrajectorySetup& setup, const TrajectoryLoss& loss);

}  // namespace softfit
