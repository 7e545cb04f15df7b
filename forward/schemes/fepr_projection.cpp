#include "forward/schemes/fepr_projection.h"

#include <Eigen/Cholesky>
#include <Eigen/Geometry>
#include <cmath>

#include "forward/errors.h"
#include "forward/schemes/momentum_damping.h"

namespace softfit {

namespace {

int constraintCount(FeprConstraints c) { return c == FeprConstraints::Energy ? 1 : 7; }

}  // namespace

void feprConstraintJacobian(const PhysicalModel& model, const State& s, FeprConstraints constraints, MatX& Jq,
                        MatX& Jv) {
  const int k = constraintCount(constraints);
  const Eigen::Index n = s.x.size();
  Jq.setZero(k, n);
  Jv.setZero(k, n);
  VecX gradient = VecX::Zero(n);
  model.addPotentialGradient(s.x, gradient);
  Jq.row(0) = gradient.transpose();
  Jv.row(0) = model.mass().cwiseProduct(s.v).transpose();
  if (k == 1) return;
  for (Eigen::Index i = 0; i < n / 3; ++i) {
    const double m = model.mass()[3 * i];
    const Vec3 q = s.x.segment<3>(3 * i), v = s.v.segment<3>(3 * i);
    // P = sum m v
    for (int d = 0; d < 3; ++d) Jv(1 + d, 3 * i + d) = m;
    // L = sum m q x v: dL/dq = -m [v]x, dL/dv = m [q]x
    Mat3 vx, qx;
    vx << 0, -v.z(), v.y(), v.z(), 0, -v.x(), -v.y(), v.x(), 0;
    qx << 0, -q.z(), q.y(), q.z(), 0, -q.x(), -q.y(), q.x(), 0;
    Jq.block<3, 3>(4, 3 * i) = -m * vx;
    Jv.block<3, 3>(4, 3 * i) = m * qx;
  }
}

FeprTarget conservedQuantities(const PhysicalModel& model, const State& state) {
  FeprTarget t;
  t.energy = model.kineticEnergy(state.v) + model.potentialEnergy(state.x);
  t.linearMomentum = linearMomentum(model.mass(), state.v);
  t.angularMomentum = angularMomentum(model.mass(), state.x, state.v);
  return t;
}

VecX feprConstraints(const PhysicalModel& model, const FeprTarget& target, const State& state,
                     FeprConstraints constraints) {
  VecX c(constraintCount(constraints));
  c[0] = model.kineticEnergy(state.v) + model.potentialEnergy(state.x) - target.energy;
  if (c.size() == 7) {
    c.segment<3>(1) = linearMomentum(model.mass(), state.v) - target.linearMomentum;
    c.segment<3>(4) = angularMomentum(model.mass(), state.x, state.v) - target.angularMomentum;
  }
  return c;
}

FeprResult feprProject(const PhysicalModel& model, const FeprTarget& target, const State& stepStart, double dt,
                       State& state, const FeprOptions& options) {
  const DofMask fixed = model.fixedDofs();
  bool anyFixed = false;
  for (char f : fixed) anyFixed = anyFixed || f;
  if (anyFixed && options.constraints == FeprConstraints::EnergyAndMomentum)
    throw InputError("fepr: momentum constraints need a free body (the model has Dirichlet nodes); use energy only");

  const Eigen::Index n = state.x.size();
  const double h2 = dt * dt;
  // Inverse metric on q and v (0 on Dirichlet dofs, so they stay put).
  VecX invMq(n), invMv(n);
  for (Eigen::Index i = 0; i < n; ++i) {
    invMq[i] = fixed[i] ? 0.0 : 1.0 / model.mass()[i];
    invMv[i] = invMq[i] / h2;
  }
  const State tilde = state;
  VecX Dq = state.x - stepStart.x, Dv = state.v - stepStart.v;
  for (Eigen::Index i = 0; i < n; ++i)
    if (fixed[i]) Dq[i] = Dv[i] = 0.0;
  const double DqNorm2 = Dq.dot(model.mass().cwiseProduct(Dq));
  const double DvNorm2 = h2 * Dv.dot(model.mass().cwiseProduct(Dv));
  const bool slackQ = options.slackWeight > 0.0 && DqNorm2 > 0.0;
  const bool slackV = options.slackWeight > 0.0 && DvNorm2 > 0.0;
  const double wq = options.slackWeight * DqNorm2, wv = options.slackWeight * DvNorm2;

  // u = (dq, dv, s, t) relative to z~.
  VecX dq = VecX::Zero(n), dv = VecX::Zero(n);
  double s = 0.0, t = 0.0;
  FeprResult result;
  MatX Jq, Jv;
  for (int it = 0;; ++it) {
    VecX c = feprConstraints(model, target, state, options.constraints);
    if (!c.allFinite()) throw SolveError("fepr: non-finite energy or momentum");
    result.residual = c.lpNorm<1>();
    result.iterations = it;
    if (result.residual < options.tolerance) {
      result.converged = true;
      break;
    }
    if (it == options.maxIterations) break;
    feprConstraintJacobian(model, state, options.constraints, Jq, Jv);
    const VecX jq = Jq * Dq, jv = Jv * Dv;  // Jacobian columns of the slack variables
    MatX S = Jq * invMq.asDiagonal() * Jq.transpose() + Jv * invMv.asDiagonal() * Jv.transpose();
    if (slackQ) S.noalias() += (jq * jq.transpose()) / wq;
    if (slackV) S.noalias() += (jv * jv.transpose()) / wv;
    // Fast projection (Goldenthal et al. 2007): the minimum-W-norm correction of the
    // linearized constraints, du = W^-1 J^T mu with (J W^-1 J^T) mu = -c.
    const Eigen::LDLT<MatX> ldlt(S);
    const VecX mu = ldlt.solve(-c);
    if (ldlt.info() != Eigen::Success || !mu.allFinite()) throw SolveError("fepr: singular 7x7 Schur system");
    dq += invMq.cwiseProduct(Jq.transpose() * mu);
    dv += invMv.cwiseProduct(Jv.transpose() * mu);
    if (slackQ) s += jq.dot(mu) / wq;
    if (slackV) t += jv.dot(mu) / wv;
    state.x = tilde.x + dq + s * Dq;
    state.v = tilde.v + dv + t * Dv;
  }
  result.slackPosition = s;
  result.slackVelocity = t;
  return result;
}

}  // namespace softfit
