#pragma once
// Wraps an objective: counts evaluations, keeps the best point, turns a failed forward
// solve into a recorded stop instead of an exception inside a third-party optimizer.
#include <chrono>
#include <limits>
#include <string>

#include "optim/optimizer.h"

namespace softfit {

class EvaluationTracker {
 public:
  EvaluationTracker(const ObjectiveFunction& f, const IterationCallback& onIteration);

  // Evaluates f; on SolveError records the failure and returns +infinity (so line
  // searches back off) with a zero gradient.
  double evaluate(const VecX& q, VecX& gradient);
  // Records an accepted iteration at q (cost and gradient as evaluated there).
  void recordIteration(int iteration, const VecX& q, double cost, const VecX& gradient);

  bool failed() const { return !failure_.empty(); }
  const std::string& failure() const { return failure_; }
  int evaluations() const { return evaluations_; }
  const VecX& bestPoint() const { return bestPoint_; }
  double bestCost() const { return bestCost_; }
  const VecX& bestGradient() const { return bestGradient_; }
  OptimizationResult& result() { return result_; }

 private:
  const ObjectiveFunction& f_;
  const IterationCallback& onIteration_;
  std::chrono::steady_clock::time_point start_;
  int evaluations_ = 0;
  std::string failure_;
  VecX bestPoint_, bestGradient_;
  double bestCost_ = std::numeric_limits<double>::infinity();
  OptimizationResult result_;
};

// The individual algorithms (one file each).
OptimizationResult minimizeLbfgs(EvaluationTracker& tracker, const VecX& q0, const OptimizerOptions& options);
OptimizationResult minimizeBarzilaiBorwein(EvaluationTracker& tracker, const VecX& q0, const OptimizerOptions& options);
OptimizationResult minimizeCeres(EvaluationTracker& tracker, const VecX& q0, const OptimizerOptions& options);
OptimizationResult minimizeGradientOnlyLbfgs(EvaluationTracker& tracker, const VecX& q0,
                                             const OptimizerOptions& options);

// minimize() with options.hessianPreconditioner (preconditioned_minimize.cpp): evaluates f
// at q0, builds H and T (hessian_preconditioner.h), runs options.kind on u (q = q0 + T u)
// and reports points, gradient norms (of dL/dq) and evaluations (the n Hessian evaluations
// included) in q. The first trial step is the Newton step of H, shortened to at most 0.5
// in every internal coordinate. If H cannot be built (a failed forward solve, a zero
// Hessian) it runs unpreconditioned and says so in stopReason.
OptimizationResult minimizePreconditioned(const ObjectiveFunction& f, const VecX& q0, const OptimizerOptions& options,
                                          const IterationCallback& onIteration);

}  // namespace softfit
