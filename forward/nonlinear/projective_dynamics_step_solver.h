#pragma once
// Projective dynamics (Bouaziz et al. 2014; Liu et al. 2017) for the ARAP material
// Psi = mu ||F - R||^2: local step R_e = polar(F_e(x)) per element, global step the
// minimizer of G with the rotations fixed, a quadratic with the constant Hessian
// A = M + c D + a b^2 h^2 (L + springs), L the Laplacian with k = 2 mu, prefactored once.
// The global solve is done in its equivalent correction form x+ = x - A^{-1} grad G_R(x)
// (G_R is quadratic with Hessian A, so this is its exact minimizer); grad G_R(x) =
// grad G(x) because the ARAP gradient 2 mu (F - R) uses exactly the local rotations.
// Gravity and attachment springs are supported; ground contact and other materials are
// not projective (InputError).
#include "forward/nonlinear/prefactored_step_matrix.h"
#include "forward/nonlinear/step_solver.h"

namespace softfit {

class ProjectiveDynamicsStepSolver final : public StepSolver {
 public:
  explicit ProjectiveDynamicsStepSolver(const StepSolverSettings& settings) : StepSolver(settings) {}
  StepSolveResult solve(StepObjective& objective, VecX& x) override;
  StepSolverType type() const override { return StepSolverType::ProjectiveDynamics; }
  void reset() override { matrix_.reset(); }

 private:
  PrefactoredStepMatrix matrix_;
};

}  // namespace softfit
