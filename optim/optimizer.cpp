#include "optim/optimizer.h"

#include "forward/errors.h"
#include "optim/evaluation_tracker.h"

namespace softfit {

namespace {
struct NamedOptimizer {
  OptimizerKind kind;
  const char* name;
};
constexpr NamedOptimizer kOptimizers[] = {{OptimizerKind::Lbfgs, "lbfgs"},
                                          {OptimizerKind::LbfgsB, "lbfgsb"},
                                          {OptimizerKind::BarzilaiBorwein, "bb"},
                                          {OptimizerKind::Ceres, "ceres"},
                                          {OptimizerKind::GradientOnlyLbfgs, "gradient-only-lbfgs"}};
}  // namespace

OptimizerKind parseOptimizerKind(const std::string& name, const std::string& field) {
  for (const auto& o : kOptimizers)
    if (name == o.name) return o.kind;
  throw InputError(field + " = \"" + name + "\": unknown optimizer (valid: lbfgs, lbfgsb, bb, ceres, gradient-only-lbfgs)");
}

std::string optimizerKindName(OptimizerKind kind) {
  for (const auto& o : kOptimizers)
    if (o.kind == kind) return o.name;
  return "unknown";
}

OptimizationResult minimize(const ObjectiveFunction& f, const VecX& q0, const OptimizerOptions& options,
                            const IterationCallback& onIteration) {
  if (options.hessianPreconditioner) return minimizePreconditioned(f, q0, options, onIteration);
  EvaluationTracker tracker(f, onIteration);
  if (options.kind == OptimizerKind::Lbfgs || options.kind == OptimizerKind::LbfgsB) {
    // The initial point is iteration 0 for every algorithm.
    VecX g(q0.size());
    const double f0 = tracker.evaluate(q0, g);
    if (tracker.failed()) {
      OptimizationResult r;
      r.point = q0;
      r.cost = f0;
      r.evaluations = tracker.evaluations();
      r.solveFailed = true;
      r.stopReason = "forward solve failed at the initial parameters: " + tracker.failure();
      return r;
    }
    tracker.recordIteration(0, q0, f0, g);
  }
  OptimizationResult result;
  switch (options.kind) {
    case OptimizerKind::Lbfgs:
    case OptimizerKind::LbfgsB: result = minimizeLbfgs(tracker, q0, options); break;
    case OptimizerKind::BarzilaiBorwein: result = minimizeBarzilaiBorwein(tracker, q0, options); break;
    case OptimizerKind::Ceres: result = minimizeCeres(tracker, q0, options); break;
    case OptimizerKind::GradientOnlyLbfgs: result = minimizeGradientOnlyLbfgs(tracker, q0, options); break;
  }
  if (options.kind != OptimizerKind::GradientOnlyLbfgs) {  // it reports its last iterate
    result.point = tracker.bestPoint().size() ? tracker.bestPoint() : q0;
    result.cost = tracker.bestCost();
  }
  result.evaluations = tracker.evaluations();
  if (tracker.failed()) {
    // Stop honestly: a point the search wanted to visit could not be simulated, so the
    // best point so far is not a verified minimum.
    result.converged = false;
    result.solveFailed = true;
    result.stopReason += " (a forward solve failed during the search: " + tracker.failure() + ")";
  }
  return result;
}

}  // namespace softfit
