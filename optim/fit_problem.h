#pragma once
// A parameter fit as an objective in transformed (internal) coordinates: set the
// parameters, simulate, evaluate the trajectory loss and its adjoint gradient.
#include <functional>

#include "adjoint/parameter_descriptor.h"
#include "adjoint/parameter_space.h"
#include "adjoint/trajectory_gradient.h"
#include "optim/optimizer.h"
#include "optim/parameter_transform.h"

namespace softfit {

struct FitSetup {
  TrajectorySetup trajectory;  // the model (borrowed: see FitProblem), integrator, dt, steps, initial state
  TrajectoryLoss* loss = nullptr;
  CheckpointOptions checkpoints;
};

// The problem keeps its own parameter values (the model's, as its last apply left them)
// and its own initial state. The model it borrows from the setup is set to them only
// while it simulates, and put back as found afterwards, so it never changes a model it
// does not own and callers need not restore one. (ParameterSpace::apply derives a value
// it does not set from the current ones, e.g. nu from the Lame parameters when only E is
// set, so an evaluation's last bits depend on the evaluations before it: they are this
// problem's, and a copy of the problem repeats them bit for bit.)
class FitProblem {
 public:
  // Reads the parameter values from the setup's model.
  FitProblem(FitSetup setup, ParameterSpace space, TransformSet transforms);

  // f(q) and df/dq; throws SolveError when the forward or adjoint solve fails.
  double evaluate(const VecX& q, VecX& gradient);
  // f(q) alone (forward pass only; equal to evaluate's value up to rounding: the reverse
  // pass sums the per-step losses in reverse order); throws SolveError.
  double cost(const VecX& q);
  ObjectiveFunction objective();
  // The loss's residuals r(q) (forward pass only; cost(q) = 1/2 |r|^2) when it is a
  // least-squares loss (TrajectoryLoss::hasResiduals), for Gauss-Newton Hessians;
  // throws SolveError.
  bool hasResiduals() const { return setup_.loss && setup_.loss->hasResiduals(); }
  VecX residuals(const VecX& q);
  // residuals() as the optimizers take them (hessian_preconditioner.h); empty when the
  // loss has none. It refers to this problem, which must outlive it.
  ResidualFunction residualFunction();

  VecX toInternal(const VecX& physical) const { return transforms_.toInternal(physical); }
  VecX toPhysical(const VecX& q) const { return transforms_.toPhysical(q); }
  const ParameterSpace& space() const { return space_; }
  const TransformSet& transforms() const { return transforms_; }
  // Moves the problem's parameter values and initial state to the given physical
  // parameters (the model is not touched).
  void apply(const VecX& physical);
  // apply(physical), then `run(trajectory)` with the model at those parameters (the
  // trajectory: setup().trajectory, at the problem's initial state); the model is put
  // back as found afterwards, also when `run` throws.
  void runAt(const VecX& physical, const std::function<void(const TrajectorySetup&)>& run);
  // The parameter values (ParameterSpace::apply's working copy) as the last apply left them.
  const ParameterValues& parameterValues() const { return values_; }
  const State& initial() const { return setup_.trajectory.initial; }
  const FitSetup& setup() const { return setup_; }
  // The same problem for another loss (e.g. a bootstrap's refit), from this one's
  // current parameter values.
  FitProblem withLoss(TrajectoryLoss& loss) const;
  size_t peakStateBytes() const { return peakStateBytes_; }

 private:
  FitSetup setup_;
  ParameterSpace space_;
  TransformSet transforms_;
  ParameterValues values_;
  size_t peakStateBytes_ = 0;
};

// Every step a Gauss-Newton step: the optimizer in the coordinates of J^T J of the
// problem's residuals, re-taken every iteration (`--precondition gauss-newton`). Only
// least-squares losses (displacements) have residuals: InputError naming `field`
// otherwise. The options then refer to `problem`, which must outlive the minimization.
void useGaussNewtonSteps(OptimizerOptions& optimizer, FitProblem& problem, const std::string& field);

// The optimizer for fits of `loss`: the gradient-only L-BFGS when its value jumps
// (TrajectoryLoss::valueJumps: value-based line searches stop at the jumps), else L-BFGS.
OptimizerKind defaultOptimizer(const TrajectoryLoss& loss);

struct MultiStartOptions {
  int starts = 1;          // 1 = only the given start
  double spread = 0.3;     // perturbation (internal coordinates) of extra starts
  unsigned seed = 7;
};

// The starts of a multi-start fit: q0, then `starts - 1` perturbed copies (a fixed
// random sequence from `seed`, so every process that asks gets the same starts).
std::vector<VecX> multiStartPoints(const VecX& q0, const MultiStartOptions& multiStart);

// The best of the starts' results: the lowest cost among the starts whose search had no
// failed forward solve (the first one on ties); when every start had one, the lowest
// cost of all. The choice depends only on the results, not on where they were computed.
int bestStartIndex(const std::vector<OptimizationResult>& results);

// Runs the optimizer from each of multiStartPoints, one after another; returns the best
// (bestStartIndex). `results`, when non-null, receives every start's result.
OptimizationResult minimizeMultiStart(const ObjectiveFunction& f, const VecX& q0, const OptimizerOptions& options,
                                      const MultiStartOptions& multiStart, const IterationCallback& onIteration = {},
                                      std::vector<OptimizationResult>* results = nullptr);

}  // namespace softfit
