#pragma once
// Quasi-Newton L-BFGS on G (Liu, Bouaziz, Kavan 2017): initial inverse Hessian A0^{-1}
// with A0 = M + c D + a b^2 h^2 (L + springs), L the PD Laplacian with k fitted to the
// material (elastic_laplacian.h), factorized once and reused across iterations and
// steps; two-loop recursion (forward/solvers/lbfgs_two_loop.h, window 5); backtracking
// Armijo line search (gamma 0.03, beta 0.5). The history is cleared every step. When the
// line search finds no decrease at a decrement below 1e-13 |G| (round-off) the solve
// counts as converged.
#include "forward/nonlinear/prefactored_step_matrix.h"
#include "forward/nonlinear/step_solver.h"
#include "forward/solvers/lbfgs_two_loop.h"

namespace softfit {

class LbfgsStepSolver final : public StepSolver {
 public:
  explicit LbfgsStepSolver(const StepSolverSettings& settings)
      : StepSolver(settings), history_(settings.lbfgsWindow) {}
  StepSolveResult solve(StepObjective& objective, VecX& x) override;
  StepSolverType type() const override { return StepSolverType::Lbfgs; }
  void reset() override { matrix_.reset(); }

 private:
  PrefactoredStepMatrix matrix_;
  LbfgsHistory history_;
};

}  // namespace softfit
