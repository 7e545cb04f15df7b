#include "optim/evaluation_tracker.h"

#include <cmath>

#include "forward/errors.h"

namespace softfit {

EvaluationTracker::EvaluationTracker(const ObjectiveFunction& f, const IterationCallback& onIteration)
    : f_(f), onIteration_(onIteration), start_(std::chrono::steady_clock::now()) {}

double EvaluationTracker::evaluate(const VecX& q, VecX& gradient) {
  ++evaluations_;
  double cost;
  try {
    cost = f_(q, gradient);
  } catch (const SolveError& e) {
    if (failure_.empty()) failure_ = e.what();
    gradient = VecX::Zero(q.size());
    return std::numeric_limits<double>::infinity();
  }
  if (!std::isfinite(cost) || !gradient.allFinite()) {
    if (failure_.empty()) failure_ = "the objective or its gradient is not finite";
    gradient = VecX::Zero(q.size());
    return std::numeric_limits<double>::infinity();
  }
  if (cost < bestCost_) {
    bestCost_ = cost;
    bestPoint_ = q;
    bestGradient_ = gradient;
  }
  return cost;
}

void EvaluationTracker::recordIteration(int iteration, const VecX& q, double cost, const VecX& gradient) {
  IterationRecord r;
  r.iteration = iteration;
  r.evaluations = evaluations_;
  r.cost = cost;
  r.gradientNorm = gradient.size() ? gradient.cwiseAbs().maxCoeff() : 0.0;
  r.point = q;
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  result_.history.push_back(r);
  if (onIteration_) onIteration_(r);
}

}  // namespace softfit
