#include "forward/nonlinear/newton_step_solver.h"

#include "forward/nonlinear/iteration_recorder.h"

namespace softfit {

StepSolveResult NewtonStepSolver::solve(StepObjective& objective, VecX& x) {
  StepSolveResult result;
  IterationRecorder recorder(settings_.recordHistory, result.history);
  NewtonOptions& o = newton_.options();
  o.maxIterations = settings_.maxIterations;
  o.stepTolerance = 0.0;      // stop on the decrement only
  o.gradientTolerance = 0.0;
  o.exactHessianBelow = 0.0;  // pure projected Newton (no switch to the exact Hessian)
  o.armijo = settings_.newtonLineSearch.armijo;
  o.backtrack = settings_.newtonLineSearch.backtrack;
  o.maxLineSearchSteps = settings_.newtonLineSearch.maxSteps;
  o.watchdogSteps = 0;  // Chen's line search: backtracking from every full step
  o.decrementTolerance = settings_.decrementTolerance * decrementScale(objective.model(), objective.problem());
  o.observer = [&](int iteration, const VecX&, double value) { recorder.record(iteration, value); };
  const NewtonResult r = newton_.minimize(objective, x, objective.problem().fixed);
  o.observer = nullptr;
  result.iterations = r.iterations;
  result.converged = r.converged;
  result.value = r.value;
  result.decrement = r.decrement;
  result.factorizations = r.factorizations;
  result.seconds = recorder.elapsed();
  return result;
}

}  // namespace softfit
