// Gradient descent with Barzilai-Borwein step sizes (as in the thesis), with a
// safeguard that halves the step when the cost does not decrease.
#include <cmath>

#include "optim/evaluation_tracker.h"

namespace softfit {

OptimizationResult minimizeBarzilaiBorwein(EvaluationTracker& tracker, const VecX& q0, const OptimizerOptions& options) {
  OptimizationResult& result = tracker.result();
  VecX q = q0, g(q0.size());
  double f = tracker.evaluate(q, g);
  if (!std::isfinite(f)) {
    result.stopReason = "objective failed at the initial point";
    return result;
  }
  tracker.recordIteration(0, q, f, g);
  // The first step moves q by options.firstStep (Euclidean), or by 0.01 in its largest coordinate.
  double step = options.firstStep > 0.0 ? options.firstStep / std::max(g.norm(), 1e-300)
                                        : 1e-2 / std::max(g.cwiseAbs().maxCoeff(), 1e-300);
  for (int it = 1; it <= options.maxIterations; ++it) {
    if (g.cwiseAbs().maxCoeff() <= options.gradientTolerance) {
      result.converged = true;
      result.stopReason = "gradient below tolerance";
      break;
    }
    VecX qNew, gNew(q.size());
    double fNew = INFINITY;
    for (int halving = 0; halving < 30; ++halving, step *= 0.5) {
      qNew = q - step * g;
      fNew = tracker.evaluate(qNew, gNew);
      if (std::isfinite(fNew) && fNew <= f) break;
    }
    if (!(std::isfinite(fNew) && fNew <= f)) {
      result.stopReason = "no decrease along the gradient";
      break;
    }
    const VecX s = qNew - q, y = gNew - g;
    const double sy = s.dot(y);
    if (sy > 0.0) step = s.dot(s) / sy;  // BB1
    const double change = std::abs(f - fNew);
    q = qNew;
    g = gNew;
    f = fNew;
    tracker.recordIteration(it, q, f, g);
    result.iterations = it;
    if (change <= options.relativeCostTolerance * std::abs(f)) {
      result.converged = true;
      result.stopReason = "relative cost change below tolerance";
      break;
    }
  }
  if (result.stopReason.empty()) result.stopReason = "maximum number of iterations reached";
  return result;
}

}  // namespace softfit
