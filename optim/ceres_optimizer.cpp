// Ceres' GradientProblemSolver (line-search L-BFGS) on the fit objective.
#include <ceres/ceres.h>

#include "optim/evaluation_tracker.h"

namespace softfit {

namespace {

class CeresObjective final : public ceres::FirstOrderFunction {
 public:
  CeresObjective(EvaluationTracker& tracker, int size) : tracker_(tracker), size_(size) {}
  bool Evaluate(const double* parameters, double* cost, double* gradient) const override {
    const VecX q = Eigen::Map<const VecX>(parameters, size_);
    VecX g(size_);
    const double f = tracker_.evaluate(q, g);
    if (!std::isfinite(f)) return false;  // Ceres backs off the step
    *cost = f;
    if (gradient) Eigen::Map<VecX>(gradient, size_) = g;
    return true;
  }
  int NumParameters() const override { return size_; }

 private:
  EvaluationTracker& tracker_;
  int size_;
};

class RecordingCallback final : public ceres::IterationCallback {
 public:
  RecordingCallback(EvaluationTracker& tracker, const VecX& q) : tracker_(tracker), q_(q) {}
  ceres::CallbackReturnType operator()(const ceres::IterationSummary& summary) override {
    VecX g = tracker_.bestGradient().size() ? tracker_.bestGradient() : VecX::Zero(q_.size());
    tracker_.recordIteration(summary.iteration, q_, summary.cost, g);
    return ceres::SOLVER_CONTINUE;
  }

 private:
  EvaluationTracker& tracker_;
  const VecX& q_;
};

}  // namespace

OptimizationResult minimizeCeres(EvaluationTracker& tracker, const VecX& q0, const OptimizerOptions& options) {
  OptimizationResult& result = tracker.result();
  VecX q = q0;
  ceres::GradientProblem problem(new CeresObjective(tracker, static_cast<int>(q.size())));
  ceres::GradientProblemSolver::Options solverOptions;
  solverOptions.line_search_direction_type = ceres::LBFGS;
  solverOptions.max_lbfgs_rank = options.memory;
  solverOptions.max_num_iterations = options.maxIterations;
  solverOptions.gradient_tolerance = options.gradientTolerance;
  solverOptions.function_tolerance = options.relativeCostTolerance;
  solverOptions.parameter_tolerance = 0.0;
  solverOptions.update_state_every_iteration = true;
  solverOptions.logging_type = ceres::SILENT;
  RecordingCallback callback(tracker, q);
  solverOptions.callbacks.push_back(&callback);
  ceres::GradientProblemSolver::Summary summary;
  ceres::Solve(solverOptions, problem, q.data(), &summary);
  result.iterations = static_cast<int>(summary.iterations.size()) - 1;
  result.converged = summary.termination_type == ceres::CONVERGENCE;
  result.stopReason = "ceres: " + summary.message;
  return result;
}

}  // namespace softfit
