#pragma once
// Total potential of the face for given per-tet activations a_i:
//   E(x) = sum_i V_i Psi(F_i Fp_i^{-1}; Sym(a_i)) - f_ext . x
// (active corotated energy, gravity and constant forces), with gradient, PSD-filtered
// (Newton) or exact (adjoint) Hessian, and the mixed derivative with respect to a_i.
#include <array>
#include <vector>

#include "face/active_corotated.h"
#include "face/face_model.h"
#include "forward/math/psd_projection.h"
#include "forward/solvers/newton_solver.h"

namespace softfit::face {

class FacePotential final : public NewtonObjective {
 public:
  explicit FacePotential(const FaceModel& model);

  // Per-tet activations (size tetCount).
  void setActivations(const std::vector<Vec6>& tetActivations);
  const std::vector<Vec6>& activations() const { return activations_; }

  double value(const VecX& x) override;
  void gradient(const VecX& x, VecX& g) override;
  void hessian(const VecX& x, SparseMatrix& H, HessianKind kind) override;
  // Both in one pass over the tets (with the polar decompositions when x's are not
  // cached): the same bits as gradient() and hessian().
  void gradientAndHessian(const VecX& x, VecX& g, SparseMatrix& H, HessianKind kind);
  bool adaptiveFilter() const override { return filter == EigenvalueFilter::Adaptive; }
  bool exactHessianFirst() const override { return filter == EigenvalueFilter::ExactFirst; }
  SparseMatrix hessianPattern() const override { return model_.pattern.zeroMatrix(); }

  double elasticEnergy(const VecX& x) const;
  // H v with the exact Hessian (no assembly). With `tets` (one flag per tet), only the
  // flagged tets' terms are summed: exact on the rows of nodes whose tets are all flagged.
  VecX exactHessianProduct(const VecX& x, const VecX& v, const std::vector<char>* tets = nullptr) const;
  // Per tet: -(d grad E / d a_i)^T lambda, i.e. dL/da_i for an adjoint vector lambda.
  std::vector<Vec6> activationAdjoint(const VecX& x, const VecX& lambda) const;
  // Per tet: d grad E / d a_i (12 x 6; rows = the tet's 4 nodes x 3), for sensitivities.
  // With `wanted` (one flag per tet), only the flagged tets' blocks are computed; the
  // others are left zero. The result lives in a buffer of this potential, reused (not
  // reallocated) by the next call, which overwrites it.
  const std::vector<Eigen::Matrix<double, 12, 6>>& activationForceBlocks(const VecX& x,
                                                                         const std::vector<char>& wanted = {}) const;

  EigenvalueFilter filter = EigenvalueFilter::ExactFirst;

 private:
  Mat3 deformation(int tet, const VecX& x) const;  // F_i Fp_i^{-1}
  // Per tet, the polar decompositions at x (activePolar of F_i Fp_i^-1 and A_i), computed
  // in parallel and cached: Newton evaluates the value at a trial point and then the
  // gradient and Hessian at the same point, so the SVDs are paid once per iterate. The
  // cache is keyed on x, the activations and the plastic scale (FaceModel::plasticScale
  // may be reassigned between solves); results are the same bits as without it.
  const std::vector<ActivePolar>& polars(const VecX& x) const;
  bool polarsCurrent(const VecX& x) const;   // polars_ hold x's
  void polarsComputedAt(const VecX& x) const;  // polars_ now hold x's
  Eigen::Matrix<double, 9, 12> shapeMatrix(int tet) const;  // d vec(F_eff) / d x_local
  // Tet t's terms at F = deformation(t, x) with its polar decompositions.
  Eigen::Matrix<double, 12, 1> elementGradient(int t, const Mat3& F, const ActivePolar& polar) const;
  void elementHessian(int t, const Mat3& F, const ActivePolar& polar, EigenvalueFilter kind,
                      Eigen::Matrix<double, 12, 12>& He) const;
  void assemble(const VecX& x, VecX* g, SparseMatrix& H, HessianKind kind);  // H, and g unless null
  Eigen::Matrix<double, 12, 6> activationForceBlock(int t, const VecX& x, const ActivePolar& polar) const;

  const FaceModel& model_;
  // Per tet, the 16 node-pair blocks' positions in model_.pattern (a * 4 + b for the
  // block of nodes a, b), looked up once: the Hessian's scatter adds without searching.
  std::vector<std::array<int, 16>> blockPositions_;
  std::vector<Vec6> activations_;
  std::vector<Mat3> activationMatrices_;
  mutable std::vector<ActivePolar> polars_;
  mutable std::vector<Eigen::Matrix<double, 12, 6>> forceBlocks_;  // activationForceBlocks()
  mutable VecX polarsX_, polarsPlasticScale_;
  mutable bool polarsValid_ = false;
};

}  // namespace softfit::face
