// minimize() in the coordinates of a finite-difference or Gauss-Newton Hessian
// (hessian_preconditioner.h), re-taken every HessianPreconditionerOptions::refreshEvery
// iterations.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <utility>
#include <vector>

#include "forward/errors.h"
#include "optim/evaluation_tracker.h"

namespace softfit {

namespace {

// An evaluation in a stage's coordinates u: the point, the cost and dL/dq there.
struct StageEvaluation {
  VecX u;
  double value;
  VecX gq;
};

}  // namespace

OptimizationResult minimizePreconditioned(const ObjectiveFunction& f, const VecX& q0, const OptimizerOptions& options,
                                          const IterationCallback& onIteration) {
  OptimizerOptions plain = options;
  plain.hessianPreconditioner = false;
  const auto unpreconditioned = [&](const std::string& why) {
    OptimizationResult r = minimize(f, q0, plain, onIteration);
    r.stopReason += " (Hessian preconditioner not used: " + why + ")";
    return r;
  };
  if (options.kind == OptimizerKind::LbfgsB) return unpreconditioned("L-BFGS-B keeps per-coordinate bounds");

  const auto start = std::chrono::steady_clock::now();
  const auto since = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
  int evaluations = 0, residualRuns = 0;
  const GradientAt gradientAt = [&](const VecX& q, VecX& g) {
    ++evaluations;
    try {
      const double value = f(q, g);
      return std::isfinite(value) && g.allFinite();
    } catch (const SolveError&) {
      return false;
    }
  };
  // The stage's start point (q, its cost and gradient).
  VecX q = q0, g(q0.size());
  double fq = 0.0;
  {
    ++evaluations;
    try {
      fq = f(q0, g);
    } catch (const SolveError&) {
      return minimize(f, q0, plain, onIteration);  // reports the failed start as usual
    }
  }

  const int stageLength = options.hessian.refreshEvery > 0 ? options.hessian.refreshEvery : options.maxIterations;
  OptimizationResult total;
  total.point = q0;
  total.cost = fq;
  int iterationsDone = 0, refreshes = 0;
  for (bool first = true;; first = false) {
    MatX H;
    LinearPreconditioner P;
    std::string failure;
    const bool haveH = options.hessian.gaussNewtonResiduals
                           ? gaussNewtonHessian(options.hessian.gaussNewtonResiduals, q, options.hessian.step, H,
                                                residualRuns)
                           : finiteDifferenceHessian(gradientAt, q, g, options.hessian.step, H);
    if (!haveH) {
      failure = "a forward solve failed near the " + std::string(first ? "start" : "point of the re-take");
    } else {
      try {
        P = hessianPreconditioner(H, q, options.hessian.floor);
      } catch (const std::invalid_argument& e) {
        failure = e.what();
      }
    }
    if (!failure.empty()) {
      if (first) {
        OptimizationResult r = unpreconditioned(failure);
        r.residualEvaluations = residualRuns;
        return r;
      }
      total.stopReason += " (Hessian not re-taken: " + failure + ")";
      break;
    }
    if (!first) ++refreshes;

    // The objective in u. u = 0 is q, already evaluated; the records need |dL/dq| of the
    // points the inner optimizer accepts, and the next stage the cost and gradient of its
    // start, so every evaluation is kept. evaluationsAfter[k]: evaluations of f after the
    // inner run's (k+1)-th call.
    std::vector<StageEvaluation> seen;
    std::vector<int> evaluationsAfter;
    const ObjectiveFunction fu = [&](const VecX& u, VecX& gu) {
      VecX gq(q0.size());
      double value = fq;
      if (u.isZero(0.0)) {
        gq = g;
      } else {
        ++evaluations;
        try {
          value = f(P.toInternal(u), gq);
        } catch (...) {
          evaluationsAfter.push_back(evaluations);
          throw;
        }
      }
      evaluationsAfter.push_back(evaluations);
      seen.push_back({u, value, gq});
      gu = P.gradientFromInternal(gq);
      return value;
    };
    const double offsetSeconds = since();
    const int offsetIterations = iterationsDone;
    const auto toInternal = [&](IterationRecord record) {
      for (auto it = seen.rbegin(); it != seen.rend(); ++it)
        if (it->u == record.point) {
          record.gradientNorm = it->gq.cwiseAbs().maxCoeff();
          break;
        }
      record.point = P.toInternal(record.point);
      if (record.evaluations >= 1 && record.evaluations <= static_cast<int>(evaluationsAfter.size()))
        record.evaluations = evaluationsAfter[record.evaluations - 1];
      record.seconds += offsetSeconds;
      record.iteration += offsetIterations;
      return record;
    };

    // First trial step: the Newton step -g_u (|g_u| long in u), at most 0.5 in q.
    OptimizerOptions inner = plain;
    const int stageCap = std::min(stageLength, options.maxIterations - iterationsDone);
    inner.maxIterations = stageCap;
    const VecX gu0 = P.gradientFromInternal(g);
    double length = gu0.norm();
    const double qStep = (P.transform * gu0).cwiseAbs().maxCoeff();
    if (qStep > 0.5) length *= 0.5 / qStep;
    if (length > 0.0) inner.initialStep = inner.firstStep = length;

    // A later stage's iteration 0 is the previous stage's last point: reported once.
    OptimizationResult r = minimize(fu, VecX::Zero(q0.size()), inner, [&](const IterationRecord& record) {
      if (onIteration && (first || record.iteration > 0)) onIteration(toInternal(record));
    });
    for (const IterationRecord& record : r.history)
      if (first || record.iteration > 0) total.history.push_back(toInternal(record));
    // A stage that did not move (LBFGS++ ends after "1 iteration" when its start meets its
    // gradient test in u, which can hold while |dL/dq| is above the tolerance) would be
    // repeated at the same point with the same Hessian until the cap: it ends the fit.
    const bool stalled = r.point.isZero(0.0) && !r.solveFailed;
    if (!stalled) iterationsDone += r.iterations;
    total.point = P.toInternal(r.point);
    total.cost = r.cost;
    total.converged = r.converged || stalled;
    total.solveFailed = total.solveFailed || r.solveFailed;
    total.stopReason = r.converged || !stalled
                           ? r.stopReason
                           : "converged (no step from the Hessian's coordinates: " + r.stopReason + ")";
    if (total.converged || r.solveFailed || r.iterations < stageCap || iterationsDone >= options.maxIterations) break;

    // The next stage starts at the best point (the last iterate for GradientOnlyLbfgs).
    q = total.point;
    const auto known = std::find_if(seen.rbegin(), seen.rend(), [&](const StageEvaluation& e) { return e.u == r.point; });
    if (known != seen.rend()) {
      fq = known->value;
      g = known->gq;
    } else {
      ++evaluations;
      try {
        fq = f(q, g);
      } catch (const SolveError& e) {
        total.stopReason += std::string(" (the point of the Hessian re-take could not be evaluated: ") + e.what() + ")";
        total.solveFailed = true;
        break;
      }
    }
  }
  total.iterations = iterationsDone;
  total.evaluations = evaluations;
  total.residualEvaluations = residualRuns;
  if (refreshes > 0) total.stopReason += " (Hessian re-taken " + std::to_string(refreshes) + " times)";
  return total;
}

}  // namespace softfit
