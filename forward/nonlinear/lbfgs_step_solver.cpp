#include "forward/nonlinear/lbfgs_step_solver.h"

#include <cmath>

#include "forward/errors.h"
#include "forward/nonlinear/iteration_recorder.h"
#include "forward/nonlinear/step_line_search.h"

namespace softfit {

StepSolveResult LbfgsStepSolver::solve(StepObjective& objective, VecX& x) {
  StepSolveResult result;
  IterationRecorder recorder(settings_.recordHistory, result.history);
  const DofMask& fixed = objective.problem().fixed;
  if (matrix_.prepare(objective, settings_.laplacianScale)) ++result.factorizations;
  const double tolerance = settings_.decrementTolerance * decrementScale(objective.model(), objective.problem());
  const auto initialSolve = [this](const VecX& r) { return matrix_.solve(r); };
  history_.clear();

  VecX g;
  StepTrial trial;
  double value = objective.valueAndGradient(x, g);
  if (!std::isfinite(value)) throw SolveError("L-BFGS: objective is not finite at the initial guess");
  recorder.record(0, value);
  zeroConstrained(g, fixed);
  for (int it = 0; it < settings_.maxIterations; ++it) {
    VecX d = -history_.apply(g, initialSolve);
    double slope = g.dot(d);
    if (!(slope < 0.0)) {  // not a descent direction: restart from A0 alone
      history_.clear();
      d = -matrix_.solve(g);
      slope = g.dot(d);
    }
    if (!std::isfinite(slope)) throw SolveError("L-BFGS: search direction is not finite");
    result.decrement = -0.5 * slope;
    if (tolerance > 0.0 && result.decrement <= tolerance) {
      result.converged = true;
      break;
    }
    backtrackStep(objective, x, d, value, slope, settings_.lbfgsLineSearch, false, trial);
    if (!trial.accepted || !(trial.value < value)) {
      // No strict decrease: converged when the predicted decrease is at the objective's
      // round-off, otherwise stalled (the result says not converged).
      result.converged = result.decrement <= kStepRoundoff * std::abs(value);
      if (trial.accepted) x.swap(trial.x);
      break;
    }
    if (!trial.haveGradient) objective.gradient(trial.x, trial.gradient);
    zeroConstrained(trial.gradient, fixed);
    history_.push(trial.x - x, trial.gradient - g);
    x.swap(trial.x);
    g.swap(trial.gradient);
    value = trial.value;
    result.iterations = it + 1;
    recorder.record(result.iterations, value);
  }
  result.value = value;
  result.seconds = recorder.elapsed();
  return result;
}

}  // namespace softfit
