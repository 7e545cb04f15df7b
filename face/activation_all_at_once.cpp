#include "face/activation_all_at_once.h"

#include <Eigen/Cholesky>
#include <cmath>

#include "face/activation_gauss_newton.h"
#include "forward/errors.h"

namespace softfit::face {

bool StartLinearization::madeFor(const FaceSolver& s, const MuscleGeometry& g, const VecX& q, const VecX& positions,
                                 bool jaw) const {
  return solver == &s && model == &s.model() && fitJaw == jaw && q0.size() == q.size() && q0 == q && x0.size() == positions.size() &&
         x0 == positions && geometry == g;
}

namespace {

// One iterate's linearization: d0, D, the residual Jacobian J and its normal equations.
struct Linearization {
  VecX d0;
  MatX D, J;
  Eigen::LDLT<MatX> normal;

  void setJacobian(MatX jacobian) {
    J = std::move(jacobian);
    MatX JtJ = MatX::Zero(J.cols(), J.cols());
    JtJ.selfadjointView<Eigen::Lower>().rankUpdate(J.transpose());  // the lower half, which LDLT reads
    normal.compute(JtJ);
  }
  // dq minimizing |r + J dq|^2 for the residuals r at x + d0.
  VecX gaussNewtonStep(const VecX& r) const { return normal.solve(-(J.transpose() * r)); }
};

}  // namespace

AllAtOnceResult solveActivationsAllAtOnce(FaceSolver& solver, const MuscleGeometry& geometry,
                                          const FaceTarget& target, ExpressionObjective& objective,
                                          const VecX& q0, const VecX& x0, const Regularization& regularization,
                                          bool fitJaw, const AllAtOnceOptions& options, StartLinearization* start) {
  const FaceModel& m = solver.model();
  const DofMask& fixed = solver.attachedDofs();
  VecX lower, upper;
  objective.bounds(lower, upper);
  AllAtOnceResult out;
  const int factorizationsBefore = solver.factorizationCount();
  const int preconditionedBefore = solver.preconditionedSolveCount();
  // Every return goes through this: the solver's counts since the start.
  const auto result = [&]() -> const AllAtOnceResult& {
    out.factorizations = solver.factorizationCount() - factorizationsBefore;
    out.preconditionedSolves = solver.preconditionedSolveCount() - preconditionedBefore;
    return out;
  };
  out.q = q0.cwiseMax(lower).cwiseMin(upper);
  out.x = x0;
  out.stopReason = "all-at-once Gauss-Newton: maximum iterations";
  double previousStep = -1.0;
  Linearization lin;
  const auto clipped = [&](const VecX& dq) { return VecX((out.q + dq).cwiseMax(lower).cwiseMin(upper)); };
  const auto converged = [&](double stepNorm, const VecX& dq) {
    return stepNorm <= options.stepTolerance && dq.lpNorm<Eigen::Infinity>() <= options.parameterTolerance;
  };
  const auto finish = [&]() {
    const Expression last = objective.unpack(out.q);
    solver.adoptEquilibrium(geometry.tetActivations(last.activations), last.jaw, out.x);
    out.converged = true;
    out.stopReason = "all-at-once Gauss-Newton: converged";
  };
  try {
    for (int it = 0; it < options.maxIterations; ++it) {
      const Expression e = objective.unpack(out.q);
      ++out.iterations;
      if (it == 0 && start && start->madeFor(solver, geometry, out.q, x0, fitJaw)) {
        out.x = start->x;
        lin.d0 = start->d0;
        lin.D = start->D;
      } else {
        solver.adoptEquilibrium(geometry.tetActivations(e.activations), e.jaw, out.x);  // sets attachments
        bool haveNewtonStep = false;
        if (it > 0 && previousStep <= options.quasiNewtonBelow) {
          // The previous D and J^T J with the exact gradient at x: the step is taken when
          // it is within the tolerances (converged) or shrinks.
          VecX gradient;
          double cost = 0.0;
          {
            // Preconditioned by the previous iterate's factorization (or factorized at x).
            const NearbyPreconditioningScope nearby(
                solver, {options.preconditionedIterations, options.preconditionedTolerance});
            cost = objective.evaluateAt(out.q, out.x, &gradient, &lin.d0);
          }
          haveNewtonStep = true;
          const VecX r = expressionResiduals(m, target, e, out.x, regularization);
          const VecX r0 = expressionResiduals(m, target, e, out.x + lin.d0, regularization);
          gradient += lin.J.transpose() * (r0 - r);
          const VecX q = clipped(lin.normal.solve(-gradient));
          const VecX dq = q - out.q;
          const VecX step = lin.d0 + lin.D * dq;
          const double stepNorm = freeInfinityNorm(step, fixed);
          if (std::isfinite(stepNorm) && dq.allFinite()) {
            const bool done = converged(stepNorm, dq);
            if (done || (stepNorm <= options.quasiNewtonBelow && stepNorm <= 0.5 * previousStep)) {
              // Converged, or a step that shrinks: taken, and the next iteration tries again.
              out.costHistory.push_back(cost);
              out.x += step;
              out.q = q;
              previousStep = stepNorm;
              ++out.quasiNewtonSteps;
              if (!done) continue;
              out.quasiNewtonLastStep = true;
              finish();
              return result();
            }
          }
        }
        // D (with d0 unless known) from the factorization at x.
        lin.D = expressionSensitivity(solver, geometry, e, out.x, fitJaw, haveNewtonStep ? nullptr : &lin.d0);
        if (it == 0 && start) *start = StartLinearization{&solver, &m, geometry, out.q, x0, fitJaw, out.x, lin.d0, lin.D};
      }
      lin.setJacobian(expressionResidualJacobian(m, target, e, out.x, regularization, lin.D));
      out.costHistory.push_back(0.5 * expressionResiduals(m, target, e, out.x, regularization).squaredNorm());
      const VecX q = clipped(lin.gaussNewtonStep(expressionResiduals(m, target, e, out.x + lin.d0, regularization)));
      const VecX dq = q - out.q;
      const VecX step = lin.d0 + lin.D * dq;
      const double stepNorm = freeInfinityNorm(step, fixed);
      if (!std::isfinite(stepNorm) || !dq.allFinite() || !std::isfinite(out.costHistory.back())) {
        out.stopReason = "all-at-once Gauss-Newton: non-finite step";
        return result();
      }
      if (it >= 2 && stepNorm > 0.5 * previousStep) {
        out.stopReason = "all-at-once Gauss-Newton: the steps stopped shrinking";
        return result();
      }
      out.x += step;
      out.q = q;
      previousStep = stepNorm;
      if (converged(stepNorm, dq)) {
        finish();
        return result();
      }
    }
  } catch (const SolveError& error) {
    out.stopReason = std::string("all-at-once Gauss-Newton: ") + error.what();
  }
  return result();
}

}  // namespace softfit::face
