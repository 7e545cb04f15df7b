#include "face/activation_fit.h"

#include <chrono>

#include "face/activation_gauss_newton.h"
#include "face/per_tet_gauss_newton.h"
#include "optim/optimizer.h"

namespace softfit::face {

ActivationFitResult fitActivations(FaceSolver& solver, const MuscleGeometry& geometry, const FaceTarget& target,
                                   const Expression& start, const ActivationFitOptions& options,
                                   const VecX* warmPositions, StartLinearization* startLinearization) {
  if (options.gaussNewton)
    return options.kind == ActivationModel::Muscles
               ? fitActivationsGaussNewton(solver, geometry, target, start, options, warmPositions, startLinearization)
               : fitPerTetActivationsGaussNewton(solver, target, start, options, warmPositions);
  const auto t0 = std::chrono::steady_clock::now();
  ExpressionObjective objective(solver, geometry, target, options.kind, options.regularization, options.fitJaw);
  objective.setFixedJaw(start.jaw);
  if (warmPositions) objective.setPositions(*warmPositions);
  OptimizerOptions o;
  o.kind = OptimizerKind::LbfgsB;
  o.maxIterations = options.maxIterations;
  o.gradientTolerance = options.gradientTolerance;
  o.relativeCostTolerance = options.relativeCostTolerance;
  o.memory = 8;
  objective.bounds(o.lowerBounds, o.upperBounds);
  VecX q0 = objective.pack(start).cwiseMax(o.lowerBounds).cwiseMin(o.upperBounds);
  const ObjectiveFunction f = [&](const VecX& q, VecX& g) { return objective.evaluate(q, &g); };
  const OptimizationResult r = minimize(f, q0, o);

  ActivationFitResult out;
  out.expression = objective.unpack(r.point);
  out.objective = objective.evaluate(r.point, nullptr);  // positions at the best point
  out.positions = objective.positions();
  out.dataLoss = objective.lastDataLoss();
  setCorrespondenceErrors(target, out);
  out.iterations = r.iterations;
  out.evaluations = r.evaluations;
  out.newtonIterations = objective.newtonIterations();
  out.converged = r.converged;
  out.stopReason = r.stopReason;
  for (const auto& record : r.history) out.costHistory.push_back(record.cost);
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return out;
}

void setCorrespondenceErrors(const FaceTarget& target, ActivationFitResult& result) {
  const VecX errors = correspondenceErrors(target, result.positions);
  result.meanError = errors.size() ? errors.mean() : 0.0;
  result.maxError = errors.size() ? errors.maxCoeff() : 0.0;
}

int invertedTetCount(const FaceModel& model, const VecX& x) {
  int count = 0;
  for (const auto& e : model.elements)
    if (deformationGradient(e, e.quadrature[0], x).determinant() <= 0.0) ++count;
  return count;
}

}  // namespace softfit::face
