#include "face/per_tet_gauss_newton.h"

#include <chrono>
#include <cmath>
#include <limits>

#include "face/activation_gauss_newton.h"
#include "forward/errors.h"

namespace softfit::face {

PerTetResidualJacobian::PerTetResidualJacobian(FaceSolver& solver, const FaceTarget& target, const Expression& e,
                                               const VecX& x, const Regularization& regularization, bool fitJaw)
    : solver_(solver),
      target_(target),
      x_(x),
      blocks_(solver.potential().activationForceBlocks(x)),
      weights_(correspondenceWeights(target, solver.model().size)),
      matches_(matchTarget(target, x)),
      sa_(std::sqrt(regularization.activation)),
      sv_(std::sqrt(regularization.volume)) {
  for (const Vec6& a : e.activations) determinantGradients_.push_back(activationDeterminantGradient(a));
  if (fitJaw) {
    const MatX motion = jawMotion(solver.model(), e.jaw);
    jawSensitivity_ = solver.sensitivity(x, MatX::Zero(x.size(), kJawDofs), motion);
  }
}

VecX PerTetResidualJacobian::apply(const VecX& v) const {
  const auto& elements = solver_.model().elements;
  VecX force = VecX::Zero(x_.size());
  for (int t = 0; t < tets(); ++t) {
    const Eigen::Matrix<double, 12, 1> local = blocks_[t] * v.segment<6>(6 * t);
    for (int a = 0; a < 4; ++a) force.segment<3>(3 * elements[t].nodes[a]) += local.segment<3>(3 * a);
  }
  VecX dx = solver_.solveFreeDofs(x_, MatX(-force)).col(0);
  if (jawSensitivity_.cols()) dx += jawSensitivity_ * v.tail<kJawDofs>();
  const int n = static_cast<int>(target_.nodes.size());
  VecX out(3 * n + 7 * tets());
  for (int k = 0; k < n; ++k)
    out.segment<3>(3 * k) = weights_[k] * (matches_[k].residualDerivative * dx.segment<3>(3 * target_.nodes[k]));
  for (int t = 0; t < tets(); ++t) {
    out.segment<6>(3 * n + 7 * t) = sa_ * v.segment<6>(6 * t);
    out[3 * n + 7 * t + 6] = sv_ * determinantGradients_[t].dot(v.segment<6>(6 * t));
  }
  return out;
}

VecX PerTetResidualJacobian::applyTranspose(const VecX& u) const {
  const auto& elements = solver_.model().elements;
  const int n = static_cast<int>(target_.nodes.size());
  VecX b = VecX::Zero(x_.size());
  for (int k = 0; k < n; ++k)
    b.segment<3>(3 * target_.nodes[k]) += weights_[k] * (matches_[k].residualDerivative.transpose() * u.segment<3>(3 * k));
  const VecX lambda = solver_.solveFreeDofs(x_, MatX(b)).col(0);
  VecX out(parameters());
  for (int t = 0; t < tets(); ++t) {
    Eigen::Matrix<double, 12, 1> local;
    for (int a = 0; a < 4; ++a) local.segment<3>(3 * a) = lambda.segment<3>(3 * elements[t].nodes[a]);
    out.segment<6>(6 * t) = -(blocks_[t].transpose() * local) + sa_ * u.segment<6>(3 * n + 7 * t) +
                            sv_ * u[3 * n + 7 * t + 6] * determinantGradients_[t];
  }
  if (jawSensitivity_.cols()) out.tail<kJawDofs>() = jawSensitivity_.transpose() * b;
  return out;
}

namespace {

// Conjugate gradients on (J^T J + mu I) d = -g, from d = 0.
VecX dampedGaussNewtonStep(const PerTetResidualJacobian& J, const VecX& g, double mu, int maxIterations, double tolerance,
                           int& iterations) {
  VecX d = VecX::Zero(g.size()), r = -g, p = r;
  double rr = r.squaredNorm();
  const double stop = tolerance * tolerance * rr;
  for (iterations = 0; iterations < maxIterations && rr > stop; ++iterations) {
    const VecX Ap = J.applyTranspose(J.apply(p)) + mu * p;
    const double alpha = rr / p.dot(Ap);
    d += alpha * p;
    r -= alpha * Ap;
    const double rrNew = r.squaredNorm();
    p = r + (rrNew / rr) * p;
    rr = rrNew;
  }
  return d;
}

// Largest eigenvalue of J^T J by power iteration (sets the scale of mu).
double largestCurvature(const PerTetResidualJacobian& J) {
  VecX v = VecX::Ones(J.parameters()).normalized();
  double lambda = 0.0;
  for (int k = 0; k < 8; ++k) {
    const VecX w = J.applyTranspose(J.apply(v));
    lambda = v.dot(w);
    if (!(w.norm() > 0.0)) break;
    v = w.normalized();
  }
  return lambda;
}

}  // namespace

ActivationFitResult fitPerTetActivationsGaussNewton(FaceSolver& solver, const FaceTarget& target,
                                                    const Expression& start, const ActivationFitOptions& options,
                                                    const VecX* warmPositions) {
  if (options.kind != ActivationModel::PerTet)
    throw std::logic_error("fitPerTetActivationsGaussNewton: the per-tet model only");
  const auto t0 = std::chrono::steady_clock::now();
  // The Jacobian products at an equilibrium solve with Newton's last factorization there.
  const ReuseNewtonFactorization reuse(solver);
  const MuscleGeometry unused;
  ExpressionObjective objective(solver, unused, target, ActivationModel::PerTet, options.regularization,
                                options.fitJaw);
  objective.setFixedJaw(start.jaw);
  if (warmPositions) objective.setPositions(*warmPositions);
  VecX lower, upper;
  objective.bounds(lower, upper);
  VecX q = objective.pack(start).cwiseMax(lower).cwiseMin(upper);
  double f = objective.evaluate(q, nullptr);

  ActivationFitResult out;
  out.costHistory.push_back(f);
  out.evaluations = 1;
  out.stopReason = "maximum iterations";
  double mu = -1.0;
  for (int it = 0; it < options.maxIterations; ++it) {
    const Expression e = objective.unpack(q);
    const VecX r = expressionResiduals(solver.model(), target, e, objective.positions(), options.regularization);
    const PerTetResidualJacobian J(solver, target, e, objective.positions(), options.regularization, options.fitJaw);
    const VecX g = J.applyTranspose(r);
    if (g.lpNorm<Eigen::Infinity>() <= options.gradientTolerance) {
      out.converged = true;
      out.stopReason = "gradient tolerance";
      break;
    }
    if (mu < 0.0) mu = 1e-6 * largestCurvature(J);
    bool accepted = false;
    for (int attempt = 0; attempt < 12 && !accepted; ++attempt) {
      int cg = 0;
      const VecX d = dampedGaussNewtonStep(J, g, mu, 100, 1e-2, cg);
      const VecX trial = (q + d).cwiseMax(lower).cwiseMin(upper);
      double ft = std::numeric_limits<double>::infinity();
      try {
        ft = objective.evaluate(trial, nullptr);
      } catch (const SolveError&) {
      }
      ++out.evaluations;
      if (ft < f) {
        accepted = true;
        const double decrease = f - ft;
        q = trial;
        f = ft;
        mu /= 3.0;
        out.costHistory.push_back(f);
        out.iterations = it + 1;
        if (decrease <= options.relativeCostTolerance * f) {
          out.converged = true;
          out.stopReason = "relative cost change";
        }
      } else {
        mu *= 4.0;
        objective.evaluate(q, nullptr);  // the solver's state (activations, factor) back at q
        ++out.evaluations;
      }
    }
    if (!accepted) {
      out.stopReason = "no decrease along damped Gauss-Newton steps";
      break;
    }
    if (out.converged) break;
  }

  out.expression = objective.unpack(q);
  out.objective = objective.evaluate(q, nullptr);
  out.positions = objective.positions();
  out.dataLoss = objective.lastDataLoss();
  setCorrespondenceErrors(target, out);
  out.newtonIterations = objective.newtonIterations();
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return out;
}

}  // namespace softfit::face
