#include "apps/commands/solver_comparison.h"

#include <algorithm>

#include "forward/errors.h"

namespace softfit {

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
