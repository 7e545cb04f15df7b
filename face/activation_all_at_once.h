#pragma once
// All-at-once Gauss-Newton for the muscle model's activation solve: the equilibrium is a
// constraint, linearized at every iterate, instead of being solved at every trial point.
// At (x, q), with the exact Hessian H at x (one factorization) and with attachments set by
// q's jaw pose:
//   d0 = -H^-1 grad E          (the Newton step at fixed q)
//   D  = dx/dq                 (FaceSolver::sensitivity at x: 6 x muscles + 5 columns,
//                               solved together with d0)
//   x(q + dq) ~ x + d0 + D dq.
// dq minimizes the residuals linearized along that, |r(x + d0) + J dq|^2 with
// J = r_x D + r_q (the Gauss-Newton Jacobian of expressionResidualJacobian), clipped to
// the bounds; then x += d0 + D dq and q += dq. Each iteration costs one factorization.
// The nested solve needs one per Newton iteration of every trial point: 4-5 against
// 10-13 on the 25k-tet bench face.
//
// The last iteration only confirms convergence. Once a step was at most
// quasiNewtonBelow, the next iteration first tries the step with the previous iteration's
// D and J^T J and this iterate's exact gradient J^T r (the adjoint: one column instead of
// D's 6 x muscles + 5, solved with d0 by conjugate gradients preconditioned with the
// previous factorization instead of a factorization of its own); when that step is
// within the tolerances it is taken and the solve has converged. A step that is not
// within them but at most quasiNewtonBelow and at most half the step before is taken too
// (a quasi-Newton step: exact gradient, the previous J^T J), and the next iteration tries
// again; otherwise the iteration goes on as a full one with its factorization.
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
#include "face/muscle_geometry.h"

namespace softfit::face {

struct AllAtOnceOptions {
  int maxIterations = 12;  // ActivationFitOptions::allAtOnceIterations
  double stepTolerance = 1e-7;       // model units, as FaceSolver::defaultOptions
  double parameterTolerance = 1e-5;  // packed q units (activations are O(1))
  // Model units: after a step at most this long, the next iteration first tries the
  // previous D and J^T J (above). 0: every iteration is a full one.
  double quasiNewtonBelow = 1e-4;
  // That try does not factorize at its iterate: the adjoint and the Newton step are
  // solved by conjugate gradients on the exact Hessian there, preconditioned by the
  // previous iteration's factorization, to this relative residual
  // (FaceSolver::NearbyPreconditioning); when they do not get there in
  // preconditionedIterations, the iterate is factorized. 0 iterations: always factorized.
  int preconditionedIterations = 3;
  double preconditionedTolerance = 1e-5;
};

// The first iteration's linearization at the start (q0, x0): x0 with q0's attachments,
// d0 and D there. It does not depend on the target. A caller that solves many targets
// from one start (the expressions of one subject) keeps one and passes it to every solve:
// the first solve fills it, the others skip the first factorization and D's solve. It is
// refilled when the solver, S, q0, x0 or fitJaw differ from the ones it was made for; the
// solver's model must not change in between.
struct StartLinearization {
  const FaceSolver* solver = nullptr;  // and its model, compared by address
  const FaceModel* model = nullptr;
  MuscleGeometry geometry;
  VecX q0, x0;
  bool fitJaw = false;
  VecX x, d0;
  MatX D;

  bool madeFor(const FaceSolver& s, const MuscleGeometry& g, const VecX& q, const VecX& positions, bool jaw) const;
};

struct AllAtOnceResult {
  bool converged = false;
  int iterations = 0;
  int factorizations = 0;  // numeric factorizations of the Hessian made (FaceSolver::factorizationCount)
  int preconditionedSolves = 0;  // quasi-Newton tries solved without one (preconditionedIterations)
  bool quasiNewtonLastStep = false;  // converged on a step with the previous D and J^T J
  int quasiNewtonSteps = 0;          // steps taken with the previous D and J^T J, the last included
  VecX q, x;               // the last iterate
  std::vector<double> costHistory;  // 1/2 |r|^2 at each iterate, before its step
  std::string stopReason;
};

// From packed parameters q0 (clipped to `objective`'s bounds) and positions x0 (3N; the
// attached dofs are set from q's jaw pose). `objective` supplies pack/unpack, bounds and
// the exact gradient (ExpressionObjective::evaluateAt). `start` (optional) is used or
// filled as above. Leaves the solver's activations at the last iterate's.
AllAtOnceResult solveActivationsAllAtOnce(FaceSolver& solver, const MuscleGeometry& geometry,
                                          const FaceTarget& target, ExpressionObjective& objective,
                                          const VecX& q0, const VecX& x0, const Regularization& regularization,
                                          bool fitJaw, const AllAtOnceOptions& options = {},
                                          StartLinearization* start = nullptr);

}  // namespace softfit::face
