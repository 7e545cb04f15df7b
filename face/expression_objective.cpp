#include "face/expression_objective.h"

#include <stdexcept>
#include <utility>

#include "forward/errors.h"

namespace softfit::face {

Expression restExpression(const FaceModel& model, ActivationModel kind) {
  Expression e;
  e.activations.assign(kind == ActivationModel::Muscles ? model.muscleCount() : model.tetCount(),
                       identityActivation());
  return e;
}

ExpressionObjective::ExpressionObjective(FaceSolver& solver, const MuscleGeometry& geometry,
                                         const FaceTarget& target, ActivationModel kind,
                                         Regularization regularization, bool fitJaw)
    : solver_(solver),
      geometry_(geometry),
      target_(target),
      kind_(kind),
      regularization_(regularization),
      fitJaw_(fitJaw) {}

int ExpressionObjective::parameterCount() const {
  const FaceModel& m = solver_.model();
  const int groups = kind_ == ActivationModel::Muscles ? m.muscleCount() : m.tetCount();
  return 6 * groups + (fitJaw_ ? kJawDofs : 0);
}

VecX ExpressionObjective::pack(const Expression& e) const {
  VecX q(parameterCount());
  for (std::size_t j = 0; j < e.activations.size(); ++j) q.segment<6>(6 * j) = e.activations[j];
  if (fitJaw_) {
    const int o = 6 * static_cast<int>(e.activations.size());
    q.segment<2>(o) = e.jaw.head<2>();
    q.segment<3>(o + 2) = e.jaw.tail<3>() / solver_.model().size;
  }
  return q;
}

Expression ExpressionObjective::unpack(const VecX& q) const {
  Expression e;
  const int groups = (parameterCount() - (fitJaw_ ? kJawDofs : 0)) / 6;
  e.activations.resize(groups);
  for (int j = 0; j < groups; ++j) e.activations[j] = q.segment<6>(6 * j);
  if (fitJaw_) {
    e.jaw.head<2>() = q.segment<2>(6 * groups);
    e.jaw.tail<3>() = q.segment<3>(6 * groups + 2) * solver_.model().size;
  } else {
    e.jaw = fixedJaw_;
  }
  return e;
}

void ExpressionObjective::setFirstOrderStart(const VecX& q, const VecX& x, MatX dxdq) {
  if (dxdq.rows() != x.size() || dxdq.cols() != q.size())
    throw std::logic_error("ExpressionObjective::setFirstOrderStart: dx/dq must be 3N x P");
  firstOrder_ = {q, x, std::move(dxdq)};
}

void ExpressionObjective::solveEquilibrium(const VecX& q, const std::vector<Vec6>& tetActivations,
                                           const JawPose& jaw) {
  std::vector<VecX> starts;  // tried in turn; the empty one is rest
  if (firstOrder_.q.size()) {
    if (q == firstOrder_.q) {
      // The equilibrium itself: make it current again without a Newton solve.
      x_ = firstOrder_.x;
      solver_.adoptEquilibrium(tetActivations, jaw, x_);
      return;
    }
    // x(q') ~ x(q) + dx/dq (q' - q): Newton starts O(|q' - q|^2) from the solution.
    VecX predicted = firstOrder_.x + firstOrder_.dxdq * (q - firstOrder_.q);
    if (predicted.allFinite()) starts.push_back(std::move(predicted));
    starts.push_back(firstOrder_.x);
  } else {
    starts.push_back(x_);
  }
  // The warm start may have been the problem: retry from rest.
  if (starts.back().size()) starts.emplace_back();
  for (std::size_t i = 0; i < starts.size(); ++i) {
    x_ = std::move(starts[i]);
    try {
      newtonIterations_ += solver_.solve(tetActivations, jaw, x_).iterations;
      return;
    } catch (const SolveError&) {
      if (i + 1 == starts.size()) throw;
    }
  }
}

double ExpressionObjective::evaluate(const VecX& q, VecX* gradient) {
  const Expression e = unpack(q);
  const std::vector<Vec6> tetActivations =
      kind_ == ActivationModel::Muscles ? geometry_.tetActivations(e.activations) : e.activations;
  solveEquilibrium(q, tetActivations, e.jaw);
  return costAtPositions(e, gradient);
}

double ExpressionObjective::evaluateAt(const VecX& q, const VecX& x, VecX* gradient, VecX* newtonStep) {
  const Expression e = unpack(q);
  x_ = x;
  solver_.adoptEquilibrium(kind_ == ActivationModel::Muscles ? geometry_.tetActivations(e.activations) : e.activations,
                           e.jaw, x_);
  return costAtPositions(e, gradient, newtonStep);
}

double ExpressionObjective::costAtPositions(const Expression& e, VecX* gradient, VecX* newtonStep) {
  const FaceModel& m = solver_.model();
  VecX dLdx;
  if (gradient) dLdx = VecX::Zero(x_.size());
  dataLoss_ = targetLoss(target_, x_, m.size, gradient ? &dLdx : nullptr);
  double J = dataLoss_;
  const Vec6 I = identityActivation();
  for (const Vec6& a : e.activations) {
    const double dv = activationDeterminant(a) - 1.0;
    J += 0.5 * regularization_.activation * (a - I).squaredNorm() + 0.5 * regularization_.volume * dv * dv;
  }
  if (!gradient) return J;
  const FaceAdjoint adjoint = solver_.adjoint(x_, e.jaw, dLdx, newtonStep);
  tetGradient_ = adjoint.tetActivations;
  const std::vector<Vec6> g =
      kind_ == ActivationModel::Muscles ? geometry_.muscleGradient(adjoint.tetActivations) : adjoint.tetActivations;
  gradient->resize(parameterCount());
  for (std::size_t j = 0; j < g.size(); ++j) {
    const Vec6& a = e.activations[j];
    gradient->segment<6>(6 * j) = g[j] + regularization_.activation * (a - I) +
                                  regularization_.volume * (activationDeterminant(a) - 1.0) *
                                      activationDeterminantGradient(a);
  }
  if (fitJaw_) {
    const int o = 6 * static_cast<int>(g.size());
    gradient->segment<2>(o) = adjoint.jaw.head<2>();
    gradient->segment<3>(o + 2) = adjoint.jaw.tail<3>() * m.size;
  }
  return J;
}

void ExpressionObjective::bounds(VecX& lower, VecX& upper) const {
  const int n = parameterCount();
  const int groups = (n - (fitJaw_ ? kJawDofs : 0)) / 6;
  lower.resize(n);
  upper.resize(n);
  const bool diagonal[6] = {true, false, false, true, false, true};
  for (int j = 0; j < groups; ++j)
    for (int k = 0; k < 6; ++k) {
      lower[6 * j + k] = diagonal[k] ? 0.2 : -2.0;
      upper[6 * j + k] = diagonal[k] ? 5.0 : 2.0;
    }
  if (fitJaw_) {
    lower.segment<2>(6 * groups).setConstant(-0.8);
    upper.segment<2>(6 * groups).setConstant(0.8);
    lower.segment<3>(6 * groups + 2).setConstant(-0.5);
    upper.segment<3>(6 * groups + 2).setConstant(0.5);
  }
}

}  // namespace softfit::face
