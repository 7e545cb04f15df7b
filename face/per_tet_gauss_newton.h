#pragma once
// The per-tet (Phace-style, 6 DoF per tet) activation baseline by matrix-free
// Gauss-Newton with Levenberg-Marquardt damping. Residuals as for the reduced model
// (face/activation_gauss_newton.h) with one activation group per tet. The 6 x tets
// activation columns of the residual Jacobian are never formed: J v costs one
// back-substitution with the factor of the equilibrium Hessian (forward sensitivity) and
// J^T u one more (adjoint), so the damped normal equations (J^T J + mu I) d = -J^T r are
// solved by conjugate gradients. Steps are clipped to the activation and jaw bounds; mu
// falls after an accepted step and rises after a rejected one.
#include "face/activation_fit.h"

#include <vector>

namespace softfit::face {

// Products with the residual Jacobian of the per-tet model at the equilibrium x of the
// solver's last solve (for the expression e). Columns: 6 per tet, then the packed jaw
// pose when fitted; rows: 3 per correspondence, then 7 per tet (regularizers).
class PerTetResidualJacobian {
 public:
  PerTetResidualJacobian(FaceSolver& solver, const FaceTarget& target, const Expression& e, const VecX& x,
                         const Regularization& regularization, bool fitJaw);
  int tets() const { return static_cast<int>(blocks_.size()); }
  int parameters() const { return 6 * tets() + static_cast<int>(jawSensitivity_.cols()); }
  VecX apply(const VecX& v) const;           // J v
  VecX applyTranspose(const VecX& u) const;  // J^T u

 private:
  FaceSolver& solver_;
  const FaceTarget& target_;
  VecX x_;
  std::vector<Eigen::Matrix<double, 12, 6>> blocks_;  // d grad E / d a_i per tet
  VecX weights_;
  std::vector<TargetMatch> matches_;  // target points and residual derivatives at x
  double sa_, sv_;
  std::vector<Vec6> determinantGradients_;
  MatX jawSensitivity_;  // dx / d(packed jaw), 3N x 5 (empty when the jaw is fixed)
};

// options.kind must be ActivationModel::PerTet; `warmPositions` (optional) starts the
// first equilibrium solve.
ActivationFitResult fitPerTetActivationsGaussNewton(FaceSolver& solver, const FaceTarget& target,
                                                    const Expression& start, const ActivationFitOptions& options,
                                                    const VecX* warmPositions = nullptr);

}  // namespace softfit::face
