#pragma once
// Projected Newton on G (Chen et al. 2024): per-element eigenvalue filtering (none,
// clamp, abs; numeric 12x12 or analytic stable neo-Hookean eigensystem), a numeric
// Cholesky factorization per iteration on the cached symbolic analysis (NewtonSolver /
// CholeskySolver), backtracking Armijo line search, Newton-decrement stopping.
#include "forward/nonlinear/step_solver.h"

namespace softfit {

class NewtonStepSolver final : public StepSolver {
 public:
  explicit NewtonStepSolver(const StepSolverSettings& settings) : StepSolver(settings) {}
  StepSolveResult solve(StepObjective& objective, VecX& x) override;
  StepSolverType type() const override { return StepSolverType::Newton; }
  int symbolicAnalyses() const { return newton_.symbolicAnalyses(); }

 private:
  NewtonSolver newton_;
};

}  // namespace softfit
