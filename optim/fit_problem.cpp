#include "optim/fit_problem.h"

#include <random>

namespace softfit {

FitProblem::FitProblem(FitSetup setup, ParameterSpace space, TransformSet transforms)
    : setup_(std::move(setup)), space_(std::move(space)), transforms_(std::move(transforms)) {}

void FitProblem::apply(const VecX& physical) {
  space_.apply(physical, *setup_.trajectory.model, setup_.trajectory.initial);
}

double FitProblem::evaluate(const VecX& q, VecX& gradient) {
  const VecX p = transforms_.toPhysical(q);
  apply(p);
  const TrajectoryGradient g = trajectoryGradient(setup_.trajectory, *setup_.loss, setup_.checkpoints);
  peakStateBytes_ = std::max(peakStateBytes_, g.checkpoints.peakStateBytes);
  gradient = transforms_.gradientToInternal(q, space_.gradient(*setup_.trajectory.model, g));
  return g.loss;
}

double FitProblem::cost(const VecX& q) {
  apply(transforms_.toPhysical(q));
  return trajectoryLoss(setup_.trajectory, *setup_.loss);
}

ObjectiveFunction FitProblem::objective() {
  return [this](const VecX& q, VecX& gradient) { return evaluate(q, gradient); };
}

OptimizerKind defaultOptimizer(const TrajectoryLoss& loss) {
  return loss.valueJumps() ? OptimizerKind::GradientOnlyLbfgs : OptimizerKind::Lbfgs;
}

std::vector<VecX> multiStartPoints(const VecX& q0, const MultiStartOptions& multiStart) {
  std::vector<VecX> starts{q0};
  std::mt19937 generator(multiStart.seed);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  for (int s = 1; s < multiStart.starts; ++s) {
    VecX start = q0;
    for (int i = 0; i < start.size(); ++i) start[i] += multiStart.spread * uniform(generator);
    starts.push_back(std::move(start));
  }
  return starts;
}

int bestStartIndex(const std::vector<OptimizationResult>& results) {
  int best = -1;
  for (int s = 0; s < static_cast<int>(results.size()); ++s) {
    if (best < 0) {
      best = s;
      continue;
    }
    const OptimizationResult& r = results[s];
    const OptimizationResult& b = results[best];
    if (r.solveFailed != b.solveFailed ? !r.solveFailed : r.cost < b.cost) best = s;
  }
  return best;
}

OptimizationResult minimizeMultiStart(const ObjectiveFunction& f, const VecX& q0, const OptimizerOptions& options,
                                      const MultiStartOptions& multiStart, const IterationCallback& onIteration,
                                      std::vector<OptimizationResult>* results) {
  std::vector<OptimizationResult> all;
  for (const VecX& start : multiStartPoints(q0, multiStart)) all.push_back(minimize(f, start, options, onIteration));
  const OptimizationResult best = all[bestStartIndex(all)];
  if (results) *results = std::move(all);
  return best;
}

}  // namespace softfit
