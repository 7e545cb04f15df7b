#pragma once
// The inverse objective of one target expression (docs/theory.rst, section 6):
//   J(q) = L(x(q)) + w_a/2 ||A - A0||^2 + w_v/2 sum_j (det Sym(a_j) - 1)^2
// where x(q) is the quasi-static equilibrium. q packs the activations (6 per muscle, or
// 6 per tet for the Phace-style baseline) and, when fitted, the jaw pose (two angles in
// radians, then the translation divided by the model size so all entries are O(1)).
// Gradients by the adjoint of the equilibrium (FaceSolver::adjoint).
#include <vector>

#include "face/face_solver.h"
#include "face/face_target.h"

namespace softfit::face {

enum class ActivationModel {
  Muscles,  // a_i = sum_j S_ij a_j (the reduced model)
  PerTet,   // a_i free per tet (Phace-style baseline, 6 DoF per tet)
};

struct Regularization {
  double activation = 1e-6;  // w_a
  double volume = 1e-5;      // w_v
  double geometry = 1e-9;    // w_s (S fits)
};

struct Expression {
  std::vector<Vec6> activations;  // per muscle (Muscles) or per tet (PerTet)
  JawPose jaw = JawPose::Zero();
};

// The rest expression: identity activations, jaw at rest.
Expression restExpression(const FaceModel& model, ActivationModel kind);

class ExpressionObjective {
 public:
  // `geometry` maps muscle activations to tets (ignored for PerTet).
  ExpressionObjective(FaceSolver& solver, const MuscleGeometry& geometry, const FaceTarget& target,
                      ActivationModel kind, Regularization regularization, bool fitJaw);

  int parameterCount() const;
  VecX pack(const Expression& e) const;
  // Unpacks q; the jaw is taken from `fixedJaw` when it is not fitted.
  Expression unpack(const VecX& q) const;
  void setFixedJaw(const JawPose& pose) { fixedJaw_ = pose; }

  // J(q) and, if gradient is given, dJ/dq. Solves the equilibrium warm-started from the
  // previous one. Throws SolveError when the equilibrium fails.
  double evaluate(const VecX& q, VecX* gradient);
  // The same at positions x (3N; the attachments of q's jaw are applied to a copy) instead
  // of q's equilibrium, without a solve: the gradient is that of the residuals with the
  // equilibrium linearized at x (adjoint with the exact Hessian at x), as in iterations
  // that keep the equilibrium as a constraint (face/activation_all_at_once.h).
  // positions() is then x. With newtonStep (and gradient), also the Newton step
  // -H^-1 grad E at x, solved with the adjoint (FaceSolver::adjoint).
  double evaluateAt(const VecX& q, const VecX& x, VecX* gradient, VecX* newtonStep = nullptr);
  // Per-tet dL/da_i of the last gradient evaluation (data term only), for S fits.
  const std::vector<Vec6>& lastTetGradient() const { return tetGradient_; }
  const VecX& positions() const { return x_; }
  // Starts the next equilibrium solve from x (and drops a first-order start).
  void setPositions(const VecX& x) {
    x_ = x;
    firstOrder_ = FirstOrderStart();
  }
  // First-order warm start: dxdq (3N x P) is the equilibrium sensitivity at the
  // equilibrium x of q (the positions of the last evaluate(q)). The next evaluations at
  // q' start Newton from x + dxdq (q' - q) (the solver then sets the attached dofs) and,
  // when that start fails, from x, then from rest; at q' = q itself x is taken as is (no
  // solve: it is that equilibrium). Kept until the next call or setPositions().
  void setFirstOrderStart(const VecX& q, const VecX& x, MatX dxdq);
  double lastDataLoss() const { return dataLoss_; }
  int newtonIterations() const { return newtonIterations_; }  // summed over evaluations

  // Bounds for L-BFGS-B in q: diagonal activations in [0.2, 5], off-diagonal in [-2, 2],
  // jaw angles in [-0.8, 0.8] rad, translations within 0.5 model sizes.
  void bounds(VecX& lower, VecX& upper) const;

 private:
  // J and its gradient at x_, the solver holding e's activations and jaw.
  double costAtPositions(const Expression& e, VecX* gradient, VecX* newtonStep = nullptr);
  struct FirstOrderStart {
    VecX q, x;
    MatX dxdq;
  };
  // The equilibrium at q (its per-tet activations and jaw) into x_: from the first-order
  // start when there is one (else from x_), retried from rest.
  void solveEquilibrium(const VecX& q, const std::vector<Vec6>& tetActivations, const JawPose& jaw);

  FaceSolver& solver_;
  const MuscleGeometry& geometry_;
  const FaceTarget& target_;
  ActivationModel kind_;
  Regularization regularization_;
  bool fitJaw_;
  JawPose fixedJaw_ = JawPose::Zero();
  VecX x_;
  FirstOrderStart firstOrder_;  // empty q = none
  std::vector<Vec6> tetGradient_;
  double dataLoss_ = 0.0;
  int newtonIterations_ = 0;
};

}  // namespace softfit::face
