#pragma once
// Projective dynamics (Bouaziz et al. 2014; Liu et al. 2017) for ARAP and corotated
// materials: local step R_e = polar(F_e(x)) per element (inside the gradient), global
// step the minimizer of the quadratic surrogate with the constant Hessian
// A = M + c D + a b^2 h^2 (L + springs + ground bound), L the Laplacian with k from
// projectiveDynamicsStiffness (elastic_laplacian.h), prefactored once. The global solve
// is done in its equivalent correction form d = -A^{-1} grad G(x) (the surrogate's
// gradient at x equals grad G(x): its R are the local rotations).
// For ARAP with attachments, gravity, damping and ground springs A bounds every term's
// curvature (GroundContact::addCurvatureBound), so the full step always passes the
// Armijo test and G falls monotonically (classic PD); for corotated the volume term is
// not majorized and the step is backtracked when needed. The fixed point is grad G = 0:
// the same minimizer as Newton. Other materials: InputError.
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
