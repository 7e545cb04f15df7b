// L-BFGS and L-BFGS-B through LBFGS++ (Debian liblbfgspp-dev).
#include <LBFGS.h>
#include <LBFGSB.h>

#include <cmath>
#include <stdexcept>

#include "optim/evaluation_tracker.h"

namespace softfit {

namespace {

// Thrown by the functor to end LBFGS++ when the relative cost change is small (LBFGS++'s
// own test compares against max(|f|, 1), i.e. absolutely for the small costs of fits).
struct RelativeCostConverged {};

// LBFGS++ has no iteration callback: an iteration is recorded at every evaluation that
// improves on the best cost (the accepted point of a line search).
// LBFGS++ works in scaled coordinates u = q / scale so that its first trial step (unit
// length in u) has length `scale` in q; the tracker sees q.
struct LbfgsFunctor {
  EvaluationTracker& tracker;
  double relativeTolerance;
  double scale;
  int iteration = 0;
  double operator()(const VecX& u, VecX& gradient) {
    const double best = tracker.bestCost();
    const VecX q = scale * u;
    const double cost = tracker.evaluate(q, gradient);
    if (cost < best) {
      tracker.recordIteration(++iteration, q, cost, gradient);
      if (iteration > 1 && best - cost <= relativeTolerance * std::abs(cost)) throw RelativeCostConverged{};
    }
    gradient *= scale;
    return cost;
  }
};

template <typename Param>
void configure(Param& p, const OptimizerOptions& options) {
  p.m = options.memory;
  p.epsilon = options.gradientTolerance * options.initialStep;  // gradient w.r.t. u = q / scale
  p.epsilon_rel = 0.0;
  p.past = 0;  // relative cost change is tested by LbfgsFunctor
  p.max_iterations = options.maxIterations;
  p.max_linesearch = 40;
}

}  // namespace

OptimizationResult minimizeLbfgs(EvaluationTracker& tracker, const VecX& q0, const OptimizerOptions& options) {
  if (!(options.initialStep > 0.0) || !std::isfinite(options.initialStep))
    throw std::invalid_argument("optimizer: initial step must be positive");
  const double scale = options.initialStep;
  LbfgsFunctor functor{tracker, options.relativeCostTolerance, scale};
  OptimizationResult& result = tracker.result();
  VecX q = q0 / scale;
  // LBFGS++ gives up when a line search fails (e.g. a direction that is not a descent
  // direction after a poor curvature pair); while that run made progress, restart from
  // the best point with an empty memory (at most kMaxRestarts times).
  constexpr int kMaxRestarts = 3;
  for (int restart = 0;; ++restart) {
    const double startCost = tracker.bestCost();
    const int remaining = std::max(1, options.maxIterations - functor.iteration);
    double fx = 0.0;
    try {
      int iterations = 0;
      if (options.kind == OptimizerKind::LbfgsB) {
        LBFGSpp::LBFGSBParam<double> param;
        configure(param, options);
        param.max_iterations = remaining;
        LBFGSpp::LBFGSBSolver<double> solver(param);
        const VecX lb = options.lowerBounds.size() ? VecX(options.lowerBounds / scale) : VecX::Constant(q.size(), -INFINITY);
        const VecX ub = options.upperBounds.size() ? VecX(options.upperBounds / scale) : VecX::Constant(q.size(), INFINITY);
        iterations = solver.minimize(functor, q, fx, lb, ub);
      } else {
        LBFGSpp::LBFGSParam<double> param;
        configure(param, options);
        param.max_iterations = remaining;
        LBFGSpp::LBFGSSolver<double> solver(param);
        iterations = solver.minimize(functor, q, fx);
      }
      result.converged = iterations < remaining;
      result.stopReason = result.converged ? "converged (gradient norm below tolerance)"
                                           : "maximum number of iterations reached";
      result.iterations = std::max(functor.iteration, options.maxIterations - remaining + iterations);
      return result;
    } catch (const RelativeCostConverged&) {
      result.converged = true;
      result.stopReason = "converged (relative cost change below tolerance)";
      result.iterations = functor.iteration;
      return result;
    } catch (const std::exception& e) {
      // At the accuracy limit of the objective a failed line search is convergence.
      const bool small = tracker.bestGradient().size() &&
                         tracker.bestGradient().norm() <= 1e3 * std::max(options.gradientTolerance, 1e-300);
      const bool progressed = tracker.bestCost() < startCost;
      if (small || !progressed || restart == kMaxRestarts || functor.iteration >= options.maxIterations ||
          !tracker.failure().empty()) {
        result.converged = small;
        result.stopReason = std::string("line search stopped: ") + e.what();
        result.iterations = functor.iteration;
        return result;
      }
      q = tracker.bestPoint() / scale;
    }
  }
}

}  // namespace softfit
