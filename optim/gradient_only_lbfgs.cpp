// L-BFGS with a gradient-only line search (Wilke, Kok, Snyman and Groenwold 2013,
// "Gradient-only approaches to avoid spurious local minima in unconstrained
// optimization"), for costs whose value jumps where the discretization changes (the grid
// SDF point cost: points move between cells and change extrapolation cell) while their
// gradient stays informative. The line search looks for the step where the directional
// derivative d . g(q + t d) has shrunk below c2 |d . g(q)| (the strong Wolfe curvature
// condition), bracketing its sign change; cost values are never compared, so a jump
// cannot stop the search short of the stationary point. The quasi-Newton matrix is
// LBFGS++'s two-loop recursion (LBFGSpp::BFGSMat).
#include <LBFGSpp/BFGSMat.h>

#include <cmath>
#include <stdexcept>

#include "optim/evaluation_tracker.h"

namespace softfit {

namespace {

constexpr double kCurvature = 0.9;  // c2: accept |d.g(t)| <= c2 |d.g(0)|
constexpr int kMaxLineSearch = 30;
// Longest trial step (infinity norm, internal coordinates: 10 = a factor e^10 in E), so
// that expanding along a cost that keeps falling cannot reach absurd parameters.
constexpr double kMaxStep = 10.0;

struct Trial {
  double t = 0.0;
  double slope = 0.0;  // d . g(q + t d)
  double cost = 0.0;
  VecX gradient;
};

// Returns the accepted trial, or one with t = 0 when no step could be found. Once the
// bracket around the sign change is shorter than `stepTolerance` (infinity norm of
// t d), its end is accepted: the gradient's own noise (kinks of the cost) can keep the
// curvature condition from holding that close to a stationary point.
Trial gradientOnlyLineSearch(EvaluationTracker& tracker, const VecX& q, const VecX& d, double slope0, double t,
                             double stepTolerance) {
  const double dMax = d.cwiseAbs().maxCoeff();
  const double tMax = kMaxStep / dMax;
  t = std::min(t, tMax);
  Trial lo{0.0, slope0, 0.0, {}}, hi{-1.0, 0.0, 0.0, {}};  // hi.t < 0: no sign change bracketed yet
  Trial best = lo;                                         // last trial still descending (slope < 0)
  for (int k = 0; k < kMaxLineSearch; ++k) {
    Trial trial{t, 0.0, 0.0, VecX(q.size())};
    trial.cost = tracker.evaluate(q + t * d, trial.gradient);
    if (!std::isfinite(trial.cost)) {
      hi = Trial{t, INFINITY, INFINITY, {}};  // failed forward solve: stay below this step
      t = 0.5 * (lo.t + t);
      continue;
    }
    trial.slope = d.dot(trial.gradient);
    if (std::abs(trial.slope) <= kCurvature * std::abs(slope0)) return trial;
    if (trial.slope < 0.0) {
      lo = best = trial;
      if (hi.t < 0.0) {
        if (t >= tMax) return trial;  // the longest step allowed, still descending
        t = std::min(4.0 * t, tMax);  // still descending: expand
        continue;
      }
    } else {
      hi = trial;
    }
    if ((hi.t - lo.t) * dMax <= stepTolerance) return lo.t > 0.0 ? lo : hi;
    // Secant on the directional derivative inside [lo, hi], kept off the ends.
    const double width = hi.t - lo.t;
    double next = std::isfinite(hi.slope) ? lo.t - lo.slope * width / (hi.slope - lo.slope) : lo.t + 0.5 * width;
    next = std::min(std::max(next, lo.t + 0.1 * width), hi.t - 0.1 * width);
    t = next;
  }
  return best;  // no trial met the curvature condition: the last descending one (or none)
}

}  // namespace

OptimizationResult minimizeGradientOnlyLbfgs(EvaluationTracker& tracker, const VecX& q0,
                                             const OptimizerOptions& options) {
  if (!(options.initialStep > 0.0) || !std::isfinite(options.initialStep))
    throw std::invalid_argument("optimizer: initial step must be positive");
  OptimizationResult& result = tracker.result();
  const int n = static_cast<int>(q0.size());
  VecX q = q0, g(n);
  double f = tracker.evaluate(q, g);
  result.point = q;
  result.cost = f;
  if (!std::isfinite(f)) {
    result.stopReason = "objective failed at the initial point";
    return result;
  }
  tracker.recordIteration(0, q, f, g);
  LBFGSpp::BFGSMat<double> inverseHessian;
  inverseHessian.reset(n, options.memory);
  bool firstStep = true;
  for (int it = 1; it <= options.maxIterations; ++it) {
    if (g.cwiseAbs().maxCoeff() <= options.gradientTolerance || g.isZero(0.0)) {  // also a zero tolerance
      result.converged = true;
      result.stopReason = "converged (gradient norm below tolerance)";
      break;
    }
    VecX d(n);
    inverseHessian.apply_Hv(g, -1.0, d);
    double slope0 = d.dot(g);
    if (!(slope0 < 0.0)) {  // lost the descent direction: restart the memory
      inverseHessian.reset(n, options.memory);
      d = -g;
      slope0 = d.dot(g);
      firstStep = true;
    }
    const double t0 = firstStep ? options.initialStep / d.norm() : 1.0;
    const Trial accepted = gradientOnlyLineSearch(tracker, q, d, slope0, t0, options.stepTolerance);
    if (accepted.t <= 0.0) {
      result.stopReason = "line search found no step along which the gradient decreases";
      break;
    }
    const VecX s = accepted.t * d, y = accepted.gradient - g;
    if (s.dot(y) > 1e-12 * s.norm() * y.norm()) inverseHessian.add_correction(s, y);
    firstStep = false;
    q += s;
    g = accepted.gradient;
    f = accepted.cost;
    result.point = q;
    result.cost = f;
    result.iterations = it;
    tracker.recordIteration(it, q, f, g);
    if (s.cwiseAbs().maxCoeff() <= options.stepTolerance) {
      result.converged = true;
      result.stopReason = "converged (step below tolerance)";
      break;
    }
  }
  if (result.stopReason.empty()) result.stopReason = "maximum number of iterations reached";
  return result;
}

}  // namespace softfit
