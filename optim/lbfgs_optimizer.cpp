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
struct LbfgsFunctor {
  EvaluationTracker& tracker;
  double relativeTolerance;
  int iteration = 0;
  double operator()(const VecX& q, VecX& gradient) {
    const double best = tracker.bestCost();
    const double cost = tracker.evaluate(q, gradient);
    if (cost < best) {
      tracker.recordIteration(++iteration, q, cost, gradient);
      if (iteration > 1 && best - cost <= relativeTolerance * std::abs(cost)) throw RelativeCostConverged{};
    }
    return cost;
  }
};

template <typename Param>
void configure(Param& p, const OptimizerOptions& options) {
  p.m = options.memory;
  p.epsilon = options.gradientTolerance;
  p.epsilon_rel = 0.0;
  p.past = 0;  // relative cost change is tested by LbfgsFunctor
  p.max_iterations = options.maxIterations;
  p.max_linesearch = 40;
}

}  // namespace

OptimizationResult minimizeLbfgs(EvaluationTracker& tracker, const VecX& q0, const OptimizerOptions& options) {
  LbfgsFunctor functor{tracker, options.relativeCostTolerance};
  VecX q = q0;
  double fx = 0.0;
  OptimizationResult& result = tracker.result();
  try {
    if (options.kind == OptimizerKind::LbfgsB) {
      LBFGSpp::LBFGSBParam<double> param;
      configure(param, options);
      LBFGSpp::LBFGSBSolver<double> solver(param);
      const VecX lb = options.lowerBounds.size() ? options.lowerBounds : VecX::Constant(q.size(), -INFINITY);
      const VecX ub = options.upperBounds.size() ? options.upperBounds : VecX::Constant(q.size(), INFINITY);
      result.iterations = solver.minimize(functor, q, fx, lb, ub);
    } else {
      LBFGSpp::LBFGSParam<double> param;
      configure(param, options);
      LBFGSpp::LBFGSSolver<double> solver(param);
      result.iterations = solver.minimize(functor, q, fx);
    }
    result.converged = result.iterations < options.maxIterations;
    result.stopReason = result.converged ? "converged (gradient norm below tolerance)"
                                         : "maximum number of iterations reached";
  } catch (const RelativeCostConverged&) {
    result.converged = true;
    result.stopReason = "converged (relative cost change below tolerance)";
    result.iterations = functor.iteration;
  } catch (const std::exception& e) {
    // LBFGS++ throws when the line search cannot make progress: at the accuracy limit
    // of the objective this is convergence, otherwise a failure.
    const bool small = tracker.bestGradient().size() &&
                       tracker.bestGradient().norm() <= 1e3 * std::max(options.gradientTolerance, 1e-300);
    result.converged = small;
    result.stopReason = std::string("line search stopped: ") + e.what();
    result.iterations = functor.iteration;
  }
  return result;
}

}  // namespace softfit
