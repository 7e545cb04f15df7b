// minimize() in the coordinates of a finite-difference Hessian (hessian_preconditioner.h).
#include <chrono>
#include <cmath>
#include <utility>
#include <vector>

#include "forward/errors.h"
#include "optim/evaluation_tracker.h"

namespace softfit {

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
  int evaluations = 0;
  const GradientAt gradientAt = [&](const VecX& q, VecX& g) {
    ++evaluations;
    try {
      const double value = f(q, g);
      return std::isfinite(value) && g.allFinite();
    } catch (const SolveError&) {
      return false;
    }
  };
  VecX g0(q0.size());
  double f0 = 0.0;
  {
    ++evaluations;
    try {
      f0 = f(q0, g0);
    } catch (const SolveError&) {
      return minimize(f, q0, plain, onIteration);  // reports the failed start as usual
    }
  }
  MatX H;
  if (!finiteDifferenceHessian(gradientAt, q0, g0, options.hessian.step, H))
    return unpreconditioned("a forward solve failed near the start");
  LinearPreconditioner P;
  try {
    P = hessianPreconditioner(H, q0, options.hessian.floor);
  } catch (const std::invalid_argument& e) {
    return unpreconditioned(e.what());
  }

  // The objective in u. u = 0 is q0, already evaluated; the records need |dL/dq| of the
  // points the inner optimizer accepts, so every evaluation's is kept.
  // evaluationsAfter[k]: evaluations of f after the inner run's (k+1)-th call.
  std::vector<std::pair<VecX, double>> gradientNorms;
  std::vector<int> evaluationsAfter;
  const ObjectiveFunction fu = [&](const VecX& u, VecX& gu) {
    VecX gq(q0.size());
    double value = f0;
    if (u.isZero(0.0)) {
      gq = g0;
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
    gradientNorms.emplace_back(u, gq.cwiseAbs().maxCoeff());
    gu = P.gradientFromInternal(gq);
    return value;
  };
  const double setupSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const auto toInternal = [&](IterationRecord record) {
    for (auto it = gradientNorms.rbegin(); it != gradientNorms.rend(); ++it)
      if (it->first == record.point) {
        record.gradientNorm = it->second;
        break;
      }
    record.point = P.toInternal(record.point);
    if (record.evaluations >= 1 && record.evaluations <= static_cast<int>(evaluationsAfter.size()))
      record.evaluations = evaluationsAfter[record.evaluations - 1];
    record.seconds += setupSeconds;
    return record;
  };

  // First trial step: the Newton step -g_u (|g_u| long in u), at most 0.5 in q.
  OptimizerOptions inner = plain;
  const VecX gu0 = P.gradientFromInternal(g0);
  double length = gu0.norm();
  const double qStep = (P.transform * gu0).cwiseAbs().maxCoeff();
  if (qStep > 0.5) length *= 0.5 / qStep;
  if (length > 0.0) inner.initialStep = length;

  OptimizationResult result = minimize(fu, VecX::Zero(q0.size()), inner, [&](const IterationRecord& record) {
    if (onIteration) onIteration(toInternal(record));
  });
  for (IterationRecord& record : result.history) record = toInternal(record);
  result.point = P.toInternal(result.point);
  result.evaluations = evaluations;
  return result;
}

}  // namespace softfit
