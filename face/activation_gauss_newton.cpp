#include "face/activation_gauss_newton.h"

#include <ceres/ceres.h>

#include <chrono>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "face/activation_all_at_once.h"
#include "forward/errors.h"
#include "forward/math/parallel_ranges.h"

namespace softfit::face {

namespace {

int residualCount(const FaceTarget& target, int muscles) { return 3 * static_cast<int>(target.nodes.size()) + 7 * muscles; }

class ExpressionResiduals final : public ceres::CostFunction {
 public:
  ExpressionResiduals(ExpressionObjective& objective, FaceSolver& solver, const MuscleGeometry& geometry,
                      const FaceTarget& target, Regularization regularization, bool fitJaw)
      : objective_(objective),
        solver_(solver),
        geometry_(geometry),
        target_(target),
        regularization_(regularization),
        fitJaw_(fitJaw) {
    set_num_residuals(residualCount(target, solver.model().muscleCount()));
    mutable_parameter_block_sizes()->push_back(objective.parameterCount());
  }

  bool Evaluate(double const* const* parameters, double* residuals, double** jacobians) const override {
    const VecX q = Eigen::Map<const VecX>(parameters[0], objective_.parameterCount());
    // Ceres evaluates a point again for its Jacobian (with the box bounds, its projected
    // line search asks for the gradient at the trial point, and an accepted step for the
    // Jacobian there once more): reuse the equilibrium, its residuals and Jacobian.
    if (!solved_ || q != solvedAt_) {
      solved_ = jacobianCurrent_ = false;
      try {
        objective_.evaluate(q, nullptr);
      } catch (const SolveError&) {
        return false;  // Ceres shrinks the trust region
      }
      solvedAt_ = q;
      solved_ = true;
      residuals_ = expressionResiduals(solver_.model(), target_, objective_.unpack(q), objective_.positions(),
                                       regularization_);
    }
    Eigen::Map<VecX>(residuals, num_residuals()) = residuals_;
    if (jacobians && jacobians[0]) {
      if (!jacobianCurrent_) {
        try {
          MatX dxdq;
          const VecX& x = objective_.positions();
          jacobian_ = expressionResidualJacobian(solver_, geometry_, target_, objective_.unpack(q), x,
                                                 regularization_, fitJaw_, &dxdq);
          // The next trial points start their equilibrium solves from the linearization
          // at this one.
          objective_.setFirstOrderStart(q, x, std::move(dxdq));
        } catch (const SolveError&) {
          return false;
        }
        jacobianCurrent_ = true;
      }
      using RowMajor = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
      Eigen::Map<RowMajor>(jacobians[0], num_residuals(), objective_.parameterCount()) = jacobian_;
    }
    return true;
  }

 private:
  ExpressionObjective& objective_;
  FaceSolver& solver_;
  const MuscleGeometry& geometry_;
  const FaceTarget& target_;
  Regularization regularization_;
  bool fitJaw_;
  mutable VecX solvedAt_;  // the q of the last equilibrium (when solved_)
  mutable bool solved_ = false;
  mutable VecX residuals_;    // at solvedAt_
  mutable MatX jacobian_;     // at solvedAt_, when jacobianCurrent_
  mutable bool jacobianCurrent_ = false;
};

}  // namespace

VecX correspondenceWeights(const FaceTarget& target, double modelSize) {
  const double n = static_cast<double>(target.nodes.size());
  VecX c = target.weights.size() ? VecX(target.weights) : VecX::Ones(target.nodes.size());
  return (2.0 * c / (n * modelSize * modelSize)).cwiseSqrt();
}

MatX jawMotion(const FaceModel& model, const JawPose& pose) {
  MatX motion = MatX::Zero(3 * model.nodeCount(), kJawDofs);
  for (int n : model.jawNodes) {
    const Mat35 J = jawPositionJacobian(model.jaw, pose, model.mesh.vertices.row(n).transpose());
    motion.block<3, 2>(3 * n, 0) = J.leftCols<2>();
    motion.block<3, 3>(3 * n, 2) = model.size * J.rightCols<3>();
  }
  return motion;
}

VecX expressionResiduals(const FaceModel& model, const FaceTarget& target, const Expression& e, const VecX& x,
                         const Regularization& regularization) {
  const int n = static_cast<int>(target.nodes.size());
  const int muscles = static_cast<int>(e.activations.size());
  VecX r(residualCount(target, muscles));
  const VecX c = correspondenceWeights(target, model.size);
  const std::vector<TargetMatch> matches = matchTarget(target, x);
  for (int k = 0; k < n; ++k) r.segment<3>(3 * k) = c[k] * (x.segment<3>(3 * target.nodes[k]) - matches[k].point);
  const double sa = std::sqrt(regularization.activation), sv = std::sqrt(regularization.volume);
  for (int j = 0; j < muscles; ++j) {
    const Vec6& a = e.activations[j];
    r.segment<6>(3 * n + 7 * j) = sa * (a - identityActivation());
    r[3 * n + 7 * j + 6] = sv * (activationDeterminant(a) - 1.0);
  }
  return r;
}

MatX expressionSensitivity(FaceSolver& solver, const MuscleGeometry& geometry, const Expression& e, const VecX& x,
                           bool fitJaw, VecX* newtonStep) {
  const FaceModel& m = solver.model();
  const int muscles = m.muscleCount();
  const int parameters = 6 * muscles + (fitJaw ? kJawDofs : 0);
  const int columns = parameters + (newtonStep ? 1 : 0);
  MatX forceDerivative, attachedMotion;
  // Built on the second core while the Hessian at x is factorized on one (before, when
  // the factorization takes both: FaceSolver::factorizeAt).
  const auto build = [&] {
    // d grad E / dq: tet i's activation a_i = sum_j S_ij a_j.
    forceDerivative.resize(x.size(), columns);
    std::vector<char> muscular(m.tetCount(), 0);  // tets with a muscle column in S
    for (int t = 0; t < m.tetCount(); ++t)
      for (int k = geometry.rowBegin(t); k < geometry.rowEnd(t); ++k)
        if (geometry.column(k) != 0) muscular[t] = 1;
    const auto& blocks = solver.potential().activationForceBlocks(x, muscular);
    // Each thread zeroes and fills its muscles' columns (each sum in tet order: the same
    // bits for any thread count).
    forEachRangeInParallel(muscles, 0, [&](int first, int last) {
      forceDerivative.middleCols(6 * first, 6 * (last - first)).setZero();
      for (int t = 0; t < m.tetCount(); ++t) {
        const auto& nodes = m.elements[t].nodes;
        for (int k = geometry.rowBegin(t); k < geometry.rowEnd(t); ++k) {
          const int c = geometry.column(k) - 1;  // the passive column 0 carries the constant identity
          if (c < first || c >= last) continue;
          const double s = geometry.values()[k];
          for (int a = 0; a < 4; ++a)
            forceDerivative.block<3, 6>(3 * nodes[a], 6 * c) += s * blocks[t].block<3, 6>(3 * a, 0);
        }
      }
    }, 1);
    forceDerivative.rightCols(columns - 6 * muscles).setZero();  // jaw, Newton step
    // The Newton step -H^-1 g is the sensitivity to a force g with no attached motion.
    if (newtonStep) forceDerivative.col(parameters) = solver.gradientAt(x);  // computed with the Hessian
    // The jaw moves the mandible nodes (packed translation = translation / size).
    if (fitJaw) attachedMotion = jawMotion(m, e.jaw);
  };
  solver.factorizeAt(x, build);
  MatX dx = solver.sensitivity(x, std::move(forceDerivative), fitJaw ? attachedMotion : MatX(x.size(), 0), 6 * muscles);
  if (newtonStep) {
    *newtonStep = dx.col(parameters);
    dx.conservativeResize(Eigen::NoChange, parameters);
  }
  return dx;
}

MatX expressionResidualJacobian(const FaceModel& m, const FaceTarget& target, const Expression& e, const VecX& x,
                                const Regularization& regularization, const MatX& dxdq) {
  const int muscles = m.muscleCount();
  const int n = static_cast<int>(target.nodes.size());
  MatX J = MatX::Zero(residualCount(target, muscles), dxdq.cols());
  const VecX c = correspondenceWeights(target, m.size);
  const std::vector<TargetMatch> matches = matchTarget(target, x);
  for (int k = 0; k < n; ++k)
    J.middleRows<3>(3 * k) = c[k] * matches[k].residualDerivative * dxdq.middleRows<3>(3 * target.nodes[k]);
  const double sa = std::sqrt(regularization.activation), sv = std::sqrt(regularization.volume);
  for (int j = 0; j < muscles; ++j) {
    J.block<6, 6>(3 * n + 7 * j, 6 * j) = sa * Eigen::Matrix<double, 6, 6>::Identity();
    J.block<1, 6>(3 * n + 7 * j + 6, 6 * j) = sv * activationDeterminantGradient(e.activations[j]).transpose();
  }
  return J;
}

MatX expressionResidualJacobian(FaceSolver& solver, const MuscleGeometry& geometry, const FaceTarget& target,
                                const Expression& e, const VecX& x, const Regularization& regularization,
                                bool fitJaw, MatX* positionSensitivity) {
  MatX dx = expressionSensitivity(solver, geometry, e, x, fitJaw);
  MatX J = expressionResidualJacobian(solver.model(), target, e, x, regularization, dx);
  if (positionSensitivity) *positionSensitivity = std::move(dx);
  return J;
}

ActivationFitResult fitActivationsGaussNewton(FaceSolver& solver, const MuscleGeometry& geometry,
                                              const FaceTarget& target, const Expression& start,
                                              const ActivationFitOptions& options, const VecX* warmPositions,
                                              StartLinearization* startLinearization) {
  if (options.kind != ActivationModel::Muscles)
    throw std::logic_error("fitActivationsGaussNewton: the reduced (muscle) model only");
  const auto t0 = std::chrono::steady_clock::now();
  // The Jacobians at accepted points reuse the factorization of Newton's last step there.
  const ReuseNewtonFactorization reuse(solver);
  ExpressionObjective objective(solver, geometry, target, options.kind, options.regularization, options.fitJaw);
  objective.setFixedJaw(start.jaw);
  if (warmPositions) objective.setPositions(*warmPositions);
  VecX lower, upper;
  objective.bounds(lower, upper);
  VecX q = objective.pack(start).cwiseMax(lower).cwiseMin(upper);

  std::string allAtOnceReason;
  int allAtOnceIterations = 0, allAtOnceFactorizations = 0;
  if (options.allAtOnceIterations > 0) {
    const VecX x0 = warmPositions ? *warmPositions : solver.model().mesh.restPositions();
    AllAtOnceOptions allAtOnce;
    allAtOnce.maxIterations = options.allAtOnceIterations;
    const AllAtOnceResult a = solveActivationsAllAtOnce(solver, geometry, target, objective, q, x0,
                                                        options.regularization, options.fitJaw, allAtOnce,
                                                        startLinearization);
    if (a.converged) {
      ActivationFitResult out;
      out.expression = objective.unpack(a.q);
      out.positions = a.x;
      const FaceModel& m = solver.model();
      out.objective = 0.5 * expressionResiduals(m, target, out.expression, a.x, options.regularization).squaredNorm();
      out.dataLoss = targetLoss(target, a.x, m.size);
      setCorrespondenceErrors(target, out);
      out.iterations = out.evaluations = a.iterations;
      out.newtonIterations = a.factorizations;
      out.converged = true;
      out.stopReason = a.stopReason;
      out.costHistory = a.costHistory;
      out.costHistory.push_back(out.objective);
      out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      return out;
    }
    allAtOnceReason = a.stopReason;
    allAtOnceIterations = a.iterations;
    allAtOnceFactorizations = a.factorizations;
  }

  ceres::Problem problem;
  problem.AddResidualBlock(
      new ExpressionResiduals(objective, solver, geometry, target, options.regularization, options.fitJaw), nullptr,
      q.data());
  for (int i = 0; i < q.size(); ++i) {
    problem.SetParameterLowerBound(q.data(), i, lower[i]);
    problem.SetParameterUpperBound(q.data(), i, upper[i]);
  }
  ceres::Solver::Options so;
  so.trust_region_strategy_type = ceres::LEVENBERG_MARQUARDT;
  so.linear_solver_type = ceres::DENSE_QR;
  so.max_num_iterations = options.maxIterations;
  so.function_tolerance = options.relativeCostTolerance;
  so.gradient_tolerance = options.gradientTolerance;
  so.parameter_tolerance = 1e-12;
  so.num_threads = 1;
  so.logging_type = ceres::SILENT;
  ceres::Solver::Summary summary;
  ceres::Solve(so, &problem, &summary);

  ActivationFitResult out;
  out.expression = objective.unpack(q);
  out.objective = objective.evaluate(q, nullptr);  // positions at the final point
  out.positions = objective.positions();
  out.dataLoss = objective.lastDataLoss();
  setCorrespondenceErrors(target, out);
  out.iterations = static_cast<int>(summary.iterations.size()) - 1;
  out.evaluations = summary.num_residual_evaluations;
  out.newtonIterations = objective.newtonIterations();
  out.converged = summary.termination_type == ceres::CONVERGENCE;
  out.stopReason = "ceres: " + summary.message;
  if (!allAtOnceReason.empty())
    out.stopReason = allAtOnceReason + " after " + std::to_string(allAtOnceIterations) + " iterations; " + out.stopReason;
  out.newtonIterations += allAtOnceFactorizations;
  for (const auto& it : summary.iterations)
    if (it.step_is_successful || it.iteration == 0) out.costHistory.push_back(it.cost);
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return out;
}

}  // namespace softfit::face
