#include "forward/nonlinear/reference_solution.h"

#include <chrono>

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

}  // namespace softfit
