#include "forward/nonlinear/lbfgs_step_solver.h"

#include <cmath>

#include "forward/errors.h"
#include "forward/nonlinear/iteration_recorder.h"

namespace softfit {

namespace {
// Relative size of G's round-off: a predicted decrease below kRoundoff |G| is noise.
constexpr double kRoundoff = 1e-12;
}  // namespace

StepSolveResult LbfgsStepSolver::solve(StepObjective& objective, VecX& x) {
  StepSolveResult result;
  IterationRecorder recorder(settings_.recordHistory, result.history);
  const DofMask& fixed = objective.problem().fixed;
  if (matrix_.prepare(objective, settings_.laplacianScale)) ++result.factorizations;
  const double tolerance = settings_.decrementTolerance * decrementScale(objective.model(), objective.problem());
  const auto initialSolve = [this](const VecX& r) { return matrix_.solve(r); };
  history_.clear();

  VecX g, gNew, trial;
  double value = objective.valueAndGradient(x, g);
  if (!std::isfinite(value)) throw SolveError("L-BFGS: objective is not finite at the initial guess");
  recorder.record(0, value);
  zeroConstrained(g, fixed);
  const LineSearchSettings& ls = settings_.lbfgsLineSearch;
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
    // The full step is usually accepted: evaluate the gradient with it in the same pass
    // over the elements; backtracked trials evaluate the value only.
    double alpha = 1.0, trialValue = value;
    bool accepted = false, haveGradient = false;
    for (int k = 0; k < ls.maxSteps; ++k, alpha *= ls.backtrack) {
      trial = x + alpha * d;
      haveGradient = k == 0;
      trialValue = haveGradient ? objective.valueAndGradient(trial, gNew) : objective.value(trial);
      if (std::isfinite(trialValue) && trialValue <= value + ls.armijo * alpha * slope) {
        accepted = true;
        break;
      }
    }
    if (!accepted || !(trialValue < value)) {
      // No strict decrease: converged when the predicted decrease is at the objective's
      // round-off, otherwise stalled (the result says not converged).
      result.converged = result.decrement <= kRoundoff * std::abs(value);
      if (accepted) x.swap(trial);
      break;
    }
    if (!haveGradient) objective.gradient(trial, gNew);
    zeroConstrained(gNew, fixed);
    history_.push(trial - x, gNew - g);
    x.swap(trial);
    g.swap(gNew);
    value = trialValue;
    result.iterations = it + 1;
    recorder.record(result.iterations, value);
  }
  result.value = value;
  result.seconds = recorder.elapsed();
  return result;
}

}  // namespace softfit
