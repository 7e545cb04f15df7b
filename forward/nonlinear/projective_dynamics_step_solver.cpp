#include "forward/nonlinear/projective_dynamics_step_solver.h"

#include <cmath>

#include "forward/errors.h"
#include "forward/nonlinear/iteration_recorder.h"
#include "forward/nonlinear/step_line_search.h"

namespace softfit {

StepSolveResult ProjectiveDynamicsStepSolver::solve(StepObjective& objective, VecX& x) {
  StepSolveResult result;
  IterationRecorder recorder(settings_.recordHistory, result.history);
  // Throws InputError for materials without a projective form (elastic_laplacian.h).
  if (matrix_.prepare(objective, 1.0, LaplacianWeights::ProjectiveDynamics)) ++result.factorizations;
  const DofMask& fixed = objective.problem().fixed;
  const double tolerance = settings_.decrementTolerance * decrementScale(objective.model(), objective.problem());
  VecX g;
  StepTrial trial;
  double value = objective.valueAndGradient(x, g);
  if (!std::isfinite(value)) throw SolveError("projective dynamics: objective is not finite at the initial guess");
  recorder.record(0, value);
  for (int it = 0; it < settings_.maxIterations; ++it) {
    zeroConstrained(g, fixed);
    const VecX d = -matrix_.solve(g);  // global step (the local projections are in g)
    const double slope = g.dot(d);
    result.decrement = -0.5 * slope;
    if (!std::isfinite(result.decrement)) throw SolveError("projective dynamics: step is not finite");
    if (tolerance > 0.0 && result.decrement <= tolerance) {
      result.converged = true;
      break;
    }
    // Full step first: always accepted where A majorizes G; also when G changes by less
    // than its round-off, where values no longer tell steps apart and the decrement test
    // decides.
    backtrackStep(objective, x, d, value, slope, settings_.lbfgsLineSearch, true, trial);
    if (!trial.accepted) {
      // No decrease: converged at the objective's round-off, otherwise stalled.
      result.converged = result.decrement <= kStepRoundoff * std::abs(value);
      break;
    }
    if (!trial.haveGradient) objective.gradient(trial.x, trial.gradient);
    x.swap(trial.x);
    g.swap(trial.gradient);
    value = trial.value;
    result.iterations = it + 1;
    recorder.record(result.iterations, value);
  }
  result.seconds = recorder.elapsed();
  result.value = value;
  return result;
}

}  // namespace softfit
