#pragma once
// A tightly converged Newton reference x* of one step and the relative energy error
// e = (G(x) - G(x*)) / (G(x_1) - G(x*)) with x_1 the initial guess (Liu 2017): the yardstick
// of the step-solver tests and of the solver comparison (apps/commands/solver_comparison.h).
#include "forward/integrators/step_problem.h"

namespace softfit {

struct ReferenceSolution {
  VecX x;
  double value = 0.0;         // G(x*)
  double initialValue = 0.0;  // G(x_1)
  int iterations = 0;
  double seconds = 0.0;
};

// Projected Newton (clamp) with the exact Hessian near the solution, converged to a step
// of 1e-13 times the model's size (NewtonSolver). Throws SolveError if it fails.
ReferenceSolution solveReference(StepObjective& objective);

double relativeEnergyError(double value, const ReferenceSolution& reference);

}  // namespace softfit
