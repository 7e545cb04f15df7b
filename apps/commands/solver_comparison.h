#pragma once
// Runs the same step with several solvers and measures each against a tightly
// converged Newton reference x* (forward/nonlinear/reference_solution.h): relative error
// e_k = (G(x_k) - G(x*)) / (G(x_1) - G(x*)) with x_1 the initial guess (Liu 2017), and
// relative distance |x - x*| / |x* - x_1|. Used by `softfit solvers` and
// bench/solver_comparison_bench.
#include <string>
#include <vector>

#include "forward/nonlinear/reference_solution.h"
#include "forward/nonlinear/step_solver.h"

namespace softfit {

struct SolverCase {
  std::string label;
  StepSolverSettings settings;
};

struct SolverCaseResult {
  std::string label;
  StepSolveResult solve;         // history recorded
  double relativeError = 0.0;    // e at the returned x
  double relativeDistance = 0.0;
  std::vector<double> errorHistory;  // e_k per iterate (k = 0 is the initial guess)
  std::string failure;           // non-empty when the solver threw (message)
};

// Solves `problem` from its initial guess with each case (recordHistory forced on). A
// solver that throws InputError / SolveError gets its message in `failure`.
std::vector<SolverCaseResult> compareSolvers(const PhysicalModel& model, const StepProblem& problem,
                                             const std::vector<SolverCase>& cases,
                                             const ReferenceSolution& reference);

}  // namespace softfit
