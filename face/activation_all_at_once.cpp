#include "face/activation_all_at_once.h"

#include <Eigen/Cholesky>
#include <cmath>

#include "face/activation_gauss_newton.h"
#include "forward/errors.h"

namespace softfit::face {

AllAtOnceResult solveActivationsAllAtOnce(FaceSolver& solver, const MuscleGeometry& geometry,
                                          const FaceTarget& target, const ExpressionObjective& objective,
                                          const VecX& q0, const VecX& x0, const Regularization& regularization,
                                          bool fitJaw, const AllAtOnceOptions& options) {
  const FaceModel& m = solver.model();
  const DofMask& fixed = solver.attachedDofs();
  VecX lower, upper;
  objective.bounds(lower, upper);
  AllAtOnceResult out;
  out.q = q0.cwiseMax(lower).cwiseMin(upper);
  out.x = x0;
  out.stopReason = "all-at-once Gauss-Newton: maximum iterations";
  double previousStep = -1.0;
  try {
    for (int it = 0; it < options.maxIterations; ++it) {
      const Expression e = objective.unpack(out.q);
      solver.adoptEquilibrium(geometry.tetActivations(e.activations), e.jaw, out.x);  // sets attachments
      VecX g;
      solver.potential().gradient(out.x, g);
      zeroConstrained(g, fixed);
      MatX D;
      const MatX J = expressionResidualJacobian(solver, geometry, target, e, out.x, regularization, fitJaw, &D);
      const VecX d0 = solver.solveFreeDofs(out.x, MatX(-g)).col(0);  // the same factorization
      out.costHistory.push_back(0.5 * expressionResiduals(m, target, e, out.x, regularization).squaredNorm());
      const VecX r0 = expressionResiduals(m, target, e, out.x + d0, regularization);
      const Eigen::LDLT<MatX> normal(MatX(J.transpose() * J));
      VecX dq = normal.solve(-(J.transpose() * r0));
      const VecX q = (out.q + dq).cwiseMax(lower).cwiseMin(upper);
      dq = q - out.q;
      const VecX step = d0 + D * dq;
      const double stepNorm = freeInfinityNorm(step, fixed);
      ++out.iterations;
      if (!std::isfinite(stepNorm) || !dq.allFinite() || !std::isfinite(out.costHistory.back())) {
        out.stopReason = "all-at-once Gauss-Newton: non-finite step";
        return out;
      }
      if (it >= 2 && stepNorm > 0.5 * previousStep) {
        out.stopReason = "all-at-once Gauss-Newton: the steps stopped shrinking";
        return out;
      }
      out.x += step;
      out.q = q;
      previousStep = stepNorm;
      if (stepNorm <= options.stepTolerance && dq.lpNorm<Eigen::Infinity>() <= options.parameterTolerance) {
        const Expression last = objective.unpack(out.q);
        solver.adoptEquilibrium(geometry.tetActivations(last.activations), last.jaw, out.x);
        out.converged = true;
        out.stopReason = "all-at-once Gauss-Newton: converged";
        return out;
      }
    }
  } catch (const SolveError& error) {
    out.stopReason = std::string("all-at-once Gauss-Newton: ") + error.what();
  }
  return out;
}

}  // namespace softfit::face
