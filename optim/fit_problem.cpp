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

ObjectiveFunction FitProblem::objective() {
  return [this](const VecX& q, VecX& gradient) { return evaluate(q, gradient); };
}

OptimizerKind defaultOptimizer(const TrajectoryLoss& loss) {
  return loss.valueJumps() ? OptimizerKind::GradientOnlyLbfgs : OptimizerKind::Lbfgs;
}

OptimizationResult minimizeMultiStart(const ObjectiveFunction& f, const VecX& q0, const OptimizerOptions& options,
                                      const MultiStartOptions& multiStart, const IterationCallback& onIteration) {
  OptimizationResult best = minimize(f, q0, options, onIteration);
  std::mt19937 generator(multiStart.seed);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  for (int s = 1; s < multiStart.starts; ++s) {
    VecX start = q0;
    for (int i = 0; i < start.size(); ++i) start[i] += multiStart.spread * uniform(generator);
    OptimizationResult r = minimize(f, start, options, onIteration);
    if (r.cost < best.cost) best = std::move(r);
  }
  return best;
}

}  // namespace softfit
