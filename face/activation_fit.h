#pragma once
// Activation-only solve for one target (S fixed) over the muscle activations (or per-tet
// activations, the baseline) and the jaw pose, with the activation box bounds of
// ExpressionObjective::bounds: Gauss-Newton (default) or L-BFGS-B (LBFGS++) on the
// adjoint gradient.
#include <string>
#include <vector>

#include "face/expression_objective.h"

namespace softfit::face {

struct ActivationFitOptions {
  ActivationModel kind = ActivationModel::Muscles;
  Regularization regularization;
  bool fitJaw = true;
  // Gauss-Newton / Levenberg-Marquardt on the residuals with the equilibrium sensitivity
  // (the thesis' solver): dense Jacobian for the muscle model
  // (face/activation_gauss_newton.h), matrix-free with conjugate gradients for the per-tet
  // baseline (face/per_tet_gauss_newton.h). false = L-BFGS-B on the adjoint gradient.
  bool gaussNewton = true;
  // Muscle model with Gauss-Newton: first up to this many all-at-once iterations
  // (face/activation_all_at_once.h, one factorization each); when they do not converge,
  // the nested solve (every trial point's equilibrium solved) from the start. 0: the
  // nested solve only.
  int allAtOnceIterations = 12;
  // The data term falls by 3 orders of magnitude in ~40 iterations on the synthetic
  // faces, then creeps; 60 iterations is the default budget.
  int maxIterations = 60;
  double gradientTolerance = 1e-10;
  double relativeCostTolerance = 1e-6;
};

struct ActivationFitResult {
  Expression expression;
  VecX positions;
  double objective = 0.0;
  double dataLoss = 0.0;
  double meanError = 0.0;  // mean correspondence distance (model units)
  double maxError = 0.0;
  int iterations = 0;
  int evaluations = 0;
  int newtonIterations = 0;  // equilibrium factorizations (all-at-once: those it made)
  bool converged = false;
  std::string stopReason;
  double seconds = 0.0;
  std::vector<double> costHistory;  // objective per accepted iteration (0 = start)
};

// Sets result.meanError and maxError from the correspondence errors of result.positions
// to the target (0 when it has no correspondences).
void setCorrespondenceErrors(const FaceTarget& target, ActivationFitResult& result);

struct StartLinearization;  // face/activation_all_at_once.h

// `warmPositions` (optional) starts the first equilibrium solve. `startLinearization`
// (optional; muscle model, Gauss-Newton with all-at-once iterations) keeps the first
// iteration's linearization for the next fits from the same start (one subject's
// expressions): see StartLinearization.
ActivationFitResult fitActivations(FaceSolver& solver, const MuscleGeometry& geometry, const FaceTarget& target,
                                   const Expression& start, const ActivationFitOptions& options,
                                   const VecX* warmPositions = nullptr,
                                   StartLinearization* startLinearization = nullptr);

// Number of tets with det F <= 0 at positions x.
int invertedTetCount(const FaceModel& model, const VecX& x);

}  // namespace softfit::face
