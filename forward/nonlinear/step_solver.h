#pragma once
// Interchangeable minimizers of one step's incremental potential G (step_problem.h):
//   Newton              projected Newton (eigenvalue filter none / clamp / abs / adaptive,
//                       numeric or analytic element eigensystem), fresh factorization per
//                       iteration
//   Lbfgs               quasi-Newton L-BFGS on the prefactored A0 = M + a b^2 h^2 L (Liu 2017)
//   ProjectiveDynamics  local/global with the same prefactored matrix (ARAP only)
// Every solver stops when its decrement -1/2 d.g (d its search direction) is at most
// decrementTolerance * decrementScale(model, step), or after maxIterations.
#include <memory>
#include <string>
#include <vector>

#include "forward/integrators/step_problem.h"

namespace softfit {

// StepSolverType, parseStepSolverType and stepSolverTypeName: integrator_settings.h.
struct LineSearchSettings {
  double armijo = 1e-8;   // sufficient decrease constant (gamma)
  double backtrack = 0.8; // step multiplier per rejection (beta)
  int maxSteps = 60;
};

struct StepSolverSettings {
  StepSolverType type = StepSolverType::Newton;
  int maxIterations = 100;
  // Relative to decrementScale (a squared strain); 0 runs maxIterations (or until stalled).
  double decrementTolerance = 1e-5;
  bool recordHistory = false;  // keep G(x_k) and the time of every iterate
  // Newton (Chen et al. 2024: backtracking 0.8, Armijo 1e-8).
  HessianProjection projection;
  LineSearchSettings newtonLineSearch{1e-8, 0.8, 60};
  // L-BFGS (Liu 2017: window 5, Armijo gamma 0.03, backtracking beta 0.5); projective
  // dynamics backtracks its global step with the same line search.
  int lbfgsWindow = 5;
  LineSearchSettings lbfgsLineSearch{0.03, 0.5, 30};
  double laplacianScale = 1.0;  // multiplies k = laplacianStiffness(material)
};

struct StepIterate {
  int iteration = 0;     // 0 = initial guess
  double value = 0.0;    // G(x_k)
  double seconds = 0.0;  // solver time from the start of solve() (history bookkeeping excluded)
};

struct StepSolveResult {
  int iterations = 0;
  bool converged = false;
  double value = 0.0;      // G at the returned x
  double decrement = 0.0;  // last -1/2 d.g
  int factorizations = 0;  // numeric Cholesky factorizations during this solve
  double seconds = 0.0;
  std::vector<StepIterate> history;  // with recordHistory
};

class StepSolver {
 public:
  virtual ~StepSolver() = default;
  // Minimizes G from x (Dirichlet dofs of objective.problem().fixed are kept). Never
  // throws on non-convergence (see the result); SolveError on non-finite values.
  virtual StepSolveResult solve(StepObjective& objective, VecX& x) = 0;
  virtual StepSolverType type() const = 0;
  // Drops cached factorizations (call after changing material parameters or masses;
  // dt, scheme and Dirichlet changes are detected).
  virtual void reset() {}
  const StepSolverSettings& settings() const { return settings_; }

 protected:
  explicit StepSolver(const StepSolverSettings& settings) : settings_(settings) {}
  StepSolverSettings settings_;
};

std::unique_ptr<StepSolver> makeStepSolver(const StepSolverSettings& settings);

}  // namespace softfit
