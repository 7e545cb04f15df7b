#pragma once
// All-at-once Gauss-Newton for the muscle model's activation solve: the equilibrium is a
// constraint, linearized at every iterate, instead of being solved at every trial point.
// At (x, q), with the exact Hessian H at x (one factorization) and with attachments set by
// q's jaw pose:
//   d0 = -H^-1 grad E          (the Newton step at fixed q)
//   D  = dx/dq                 (FaceSolver::sensitivity at x: 6 x muscles + 5 columns)
//   x(q + dq) ~ x + d0 + D dq.
// dq minimizes the residuals linearized along that, |r(x + d0) + J dq|^2 with
// J = r_x D + r_q (the Gauss-Newton Jacobian of expressionResidualJacobian), clipped to
// the bounds; then x += d0 + D dq and q += dq. Each iteration costs one factorization.
// The nested solve needs one per Newton iteration of every trial point: 4-5 against
// 10-13 on the 25k-tet bench face.
//
// There is no line search. The solve gives up (converged = false) when:
// - a step does not shrink (from the third on, at most half the one before);
// - a value is not finite, or a solve fails;
// - maxIterations is reached.
// The caller then runs the nested solve. It converges when the equilibrium step is at most
// stepTolerance (Newton's test) and no activation or jaw entry moves by more than
// parameterTolerance.
#include <string>
#include <vector>

#include "face/expression_objective.h"

namespace softfit::face {

struct AllAtOnceOptions {
  int maxIterations = 12;  // ActivationFitOptions::allAtOnceIterations
  double stepTolerance = 1e-7;       // model units, as FaceSolver::defaultOptions
  double parameterTolerance = 1e-5;  // packed q units (activations are O(1))
};

struct AllAtOnceResult {
  bool converged = false;
  int iterations = 0;  // = factorizations
  VecX q, x;           // the last iterate
  std::vector<double> costHistory;  // 1/2 |r|^2 at each iterate, before its step
  std::string stopReason;
};

// From packed parameters q0 (clipped to `objective`'s bounds) and positions x0 (3N; the
// attached dofs are set from q's jaw pose). `objective` supplies pack/unpack and bounds.
// Leaves the solver's activations at the last iterate's.
AllAtOnceResult solveActivationsAllAtOnce(FaceSolver& solver, const MuscleGeometry& geometry,
                                          const FaceTarget& target, const ExpressionObjective& objective,
                                          const VecX& q0, const VecX& x0, const Regularization& regularization,
                                          bool fitJaw, const AllAtOnceOptions& options = {});

}  // namespace softfit::face
