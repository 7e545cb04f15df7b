#pragma once
// Activation-only solve of one target by Gauss-Newton with a Levenberg-Marquardt trust
// region (Ceres, with the activation and jaw box bounds), the solver of the thesis for
// the reduced (muscle) model. Residuals
//   r(q) = [ sqrt(2 w_k / (n size^2)) (x_k(q) - t_k) ;  sqrt(w_a) (a_j - I) ;
//            sqrt(w_v) (det Sym(a_j) - 1) ]
// so that r^T r / 2 is exactly ExpressionObjective's J(q); the Jacobian dr/dq comes from
// the equilibrium sensitivity dx/dq (FaceSolver::sensitivity: one factorization of the
// exact Hessian and one solve with 6 x muscles (+5 jaw) right-hand sides per accepted
// step; the next residual evaluations start Newton from the first-order prediction
// x + dx/dq dq, ExpressionObjective::setFirstOrderStart). The per-tet baseline (6 x tets
// parameters) stays with L-BFGS-B.
#include "face/activation_fit.h"

namespace softfit::face {

// options.kind must be ActivationModel::Muscles (face/per_tet_gauss_newton.h: PerTet).
// `warmPositions` (optional) starts the first equilibrium solve; `startLinearization`
// (optional) as in fitActivations.
ActivationFitResult fitActivationsGaussNewton(FaceSolver& solver, const MuscleGeometry& geometry,
                                              const FaceTarget& target, const Expression& start,
                                              const ActivationFitOptions& options, const VecX* warmPositions = nullptr,
                                              StartLinearization* startLinearization = nullptr);

// The residual Jacobian dr/dq at the equilibrium x of the expression e (the solver's
// potential must hold e's activations, i.e. x came from the last solve), rows and
// columns as above. Exposed for the finite-difference test. positionSensitivity
// (optional) receives the equilibrium sensitivity dx/dq (3N x P) it is built from.
MatX expressionResidualJacobian(FaceSolver& solver, const MuscleGeometry& geometry, const FaceTarget& target,
                                const Expression& e, const VecX& x, const Regularization& regularization,
                                bool fitJaw, MatX* positionSensitivity = nullptr);
// Its two halves. The equilibrium sensitivity dx/dq (3N x P) at x (as above), and with
// newtonStep the Newton step -H^-1 grad E at x as well (0 on the attached dofs), solved
// as one more column with the same factorization:
MatX expressionSensitivity(FaceSolver& solver, const MuscleGeometry& geometry, const Expression& e, const VecX& x,
                           bool fitJaw, VecX* newtonStep = nullptr);
// and dr/dq at positions x from a sensitivity dxdq (the target matches are taken at x).
MatX expressionResidualJacobian(const FaceModel& model, const FaceTarget& target, const Expression& e, const VecX& x,
                                const Regularization& regularization, const MatX& dxdq);
// sqrt(2 w_k / (n size^2)) per correspondence: the data residual weights.
VecX correspondenceWeights(const FaceTarget& target, double modelSize);
// d x / d (packed jaw pose) on the mandible nodes (3N x 5, zero elsewhere; the packed
// translation is the translation divided by the model size, ExpressionObjective::pack).
MatX jawMotion(const FaceModel& model, const JawPose& pose);
// The residuals r at positions x for the expression e.
VecX expressionResiduals(const FaceModel& model, const FaceTarget& target, const Expression& e, const VecX& x,
                         const Regularization& regularization);

}  // namespace softfit::face
