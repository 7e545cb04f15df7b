#include "forward/nonlinear/solver_comparison.h"

#include <chrono>
#include <cmath>

#include "forward/errors.h"

namespace softfit {

ReferenceSolution solveReference(StepObjective& objective) {
  ReferenceSolution ref;
  ref.x = objective.problem().initialGuess;
  ref.initialValue = objective.value(ref.x);
  NewtonOptions options;
  options.maxIterations = 500;
  options.stepTolerance = 1e-13 * objective.model().characteristicLength();
  NewtonSolver newton(options);
  const auto start = std::chrono::steady_clock::now();
  const NewtonResult r = newton.minimize(objective, ref.x, objective.problem().fixed);
  ref.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!r.converged)
    throw SolveError("reference Newton solve did not converge in " + std::to_string(r.iterations) + " iterations");
  ref.value = objective.value(ref.x);
  ref.iterations = r.iterations;
  return ref;
}

double relativeEnergyError(double value, const ReferenceSolution& reference) {
  const double range = reference.initialValue - reference.value;
  return range > 0.0 ? (value - reference.value) / range : 0.0;
}

std::vector<SolverCaseResult> compareSolvers(const PhysicalModel& model, const StepProblem& problem,
                                             const std::vector<SolverCase>& cases,
                                             const ReferenceSolution& reference) {
  std::vector<SolverCaseResult> results;
  const double span = std::max((reference.x - problem.initialGuess).norm(), 1e-300);
  for (const SolverCase& c : cases) {
    SolverCaseResult r;
    r.label = c.label;
    StepSolverSettings settings = c.settings;
    settings.recordHistory = true;
    try {
      StepObjective objective(model, problem, settings.projection);
      const auto solver = makeStepSolver(settings);
      VecX x = problem.initialGuess;
      r.solve = solver->solve(objective, x);
      r.relativeError = relativeEnergyError(r.solve.value, reference);
      r.relativeDistance = (x - reference.x).norm() / span;
      for (const StepIterate& it : r.solve.history) r.errorHistory.push_back(relativeEnergyError(it.value, reference));
    } catch (const std::runtime_error& e) {  // InputError, SolveError
      r.failure = e.what();
    }
    results.push_back(std::move(r));
  }
  return results;
}

}  // namespace softfit
