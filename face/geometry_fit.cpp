#include "face/geometry_fit.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <deque>
#include <limits>

#include "forward/errors.h"

namespace softfit::face {

GeometryObjective::GeometryObjective(FaceSolver& solver, MuscleGeometry& geometry,
                                     const std::vector<FaceTarget>& targets,
                                     const std::vector<Expression>& expressions, VecX reference, double weight)
    : solver_(solver),
      geometry_(geometry),
      targets_(targets),
      expressions_(expressions),
      reference_(std::move(reference)),
      weight_(weight),
      positions_(targets.size()) {}

double GeometryObjective::evaluate(const VecX& values, VecX* gradient) {
  geometry_.setValues(values);
  const VecX diff = values - reference_;
  double J = 0.5 * weight_ * diff.squaredNorm();
  if (gradient) *gradient = weight_ * diff;
  for (std::size_t t = 0; t < targets_.size(); ++t) {
    ExpressionObjective e(solver_, geometry_, targets_[t], ActivationModel::Muscles, Regularization{0, 0, 0}, false);
    e.setFixedJaw(expressions_[t].jaw);
    e.setPositions(positions_[t]);
    VecX g;
    e.evaluate(e.pack(expressions_[t]), gradient ? &g : nullptr);
    J += e.lastDataLoss();
    positions_[t] = e.positions();
    if (gradient) *gradient += geometry_.valueGradient(e.lastTetGradient(), expressions_[t].activations);
  }
  return J;
}

int minimizeOnSimplices(GeometryObjective& objective, const MuscleGeometry& geometry, VecX& values,
                        int maxIterations, double& value) {
  constexpr double kAlphaMin = 1e-10, kAlphaMax = 1e10, kGamma = 1e-4;
  constexpr int kMemory = 8;
  geometry.projectToSimplex(values);
  VecX g;
  double f = objective.evaluate(values, &g);
  // First step: move the largest entry by at most 0.05 (the gradient scale of the
  // normalized data term says nothing about a sensible step in S).
  double alpha = std::clamp(0.05 / std::max(g.lpNorm<Eigen::Infinity>(), 1e-300), kAlphaMin, kAlphaMax);
  std::deque<double> recent{f};
  int it = 0;
  for (; it < maxIterations; ++it) {
    // Barzilai-Borwein step, capped so no entry moves by more than 0.5 before projection.
    const double step0 = std::min(alpha, 0.5 / std::max(g.lpNorm<Eigen::Infinity>(), 1e-300));
    VecX d = values - step0 * g;
    geometry.projectToSimplex(d);
    d -= values;
    if (d.lpNorm<Eigen::Infinity>() < 1e-10) break;
    const double slope = g.dot(d);
    if (slope >= 0.0) break;
    const double reference = *std::max_element(recent.begin(), recent.end());
    double step = 1.0, ft = std::numeric_limits<double>::infinity();
    VecX trial, gt;
    bool accepted = false;
    for (int ls = 0; ls < 12; ++ls, step *= 0.5) {
      trial = values + step * d;
      try {
        ft = objective.evaluate(trial, &gt);
      } catch (const SolveError&) {
        ft = std::numeric_limits<double>::infinity();
      }
      if (std::isfinite(ft) && ft <= reference + kGamma * step * slope) {
        accepted = true;
        break;
      }
    }
    if (!accepted) break;
    const VecX s = trial - values, y = gt - g;
    const double sy = s.dot(y);
    alpha = sy > 0.0 ? std::clamp(s.squaredNorm() / sy, kAlphaMin, kAlphaMax) : kAlphaMax;
    values = trial;
    f = ft;
    g = gt;
    recent.push_back(f);
    if (static_cast<int>(recent.size()) > kMemory) recent.pop_front();
  }
  objective.evaluate(values, nullptr);  // leave the objective's state at the result
  value = f;
  return it;
}

GeometryFitResult fitGeometry(const FaceModel& model, const MuscleGeometry& initial,
                              const std::vector<FaceTarget>& targets, const GeometryFitOptions& options,
                              const GeometryFitCallback& onRound) {
  GeometryFitResult out;
  out.geometry = initial;
  const VecX reference = initial.values();
  const std::size_t T = targets.size();
  out.expressions.assign(T, restExpression(model, ActivationModel::Muscles));
  out.positions.assign(T, VecX());
  out.meanErrors.assign(T, 0.0);
  FaceSolver solver(model);
  ActivationFitOptions activation = options.activation;
  activation.kind = ActivationModel::Muscles;
  for (int round = 0; round < options.rounds; ++round) {
    const auto t0 = std::chrono::steady_clock::now();
    const double decay = std::pow(options.regularizationDecay, round);
    activation.regularization.activation = options.activation.regularization.activation * decay;
    activation.regularization.volume = options.activation.regularization.volume * decay;
    for (std::size_t t = 0; t < T; ++t) {
      const ActivationFitResult r = fitActivations(solver, out.geometry, targets[t], out.expressions[t], activation,
                                                   out.positions[t].size() ? &out.positions[t] : nullptr);
      out.expressions[t] = r.expression;
      out.positions[t] = r.positions;
    }
    GeometryObjective objective(solver, out.geometry, targets, out.expressions, reference,
                                options.activation.regularization.geometry * decay);
    VecX values = out.geometry.values();
    GeometryFitRound record;
    record.round = round;
    record.geometryIterations = minimizeOnSimplices(objective, out.geometry, values, options.geometryIterations,
                                                    record.geometryObjective);
    out.geometry.setValues(values);
    double sum = 0.0;
    for (std::size_t t = 0; t < T; ++t) {
      out.positions[t] = objective.positions()[t];
      out.meanErrors[t] = correspondenceErrors(targets[t], out.positions[t]).mean();
      sum += out.meanErrors[t];
      record.invertedTets += invertedTetCount(model, out.positions[t]);
    }
    record.meanError = T ? sum / T : 0.0;
    record.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    out.history.push_back(record);
    if (onRound) onRound(record);
  }
  return out;
}

}  // namespace softfit::face
