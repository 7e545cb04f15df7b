#include "optim/fit_problem.h"

#include <random>

#include "forward/errors.h"

namespace softfit {

FitProblem::FitProblem(FitSetup setup, ParameterSpace space, TransformSet transforms)
    : setup_(std::move(setup)), space_(std::move(space)), transforms_(std::move(transforms)) {
  if (setup_.trajectory.model) values_ = readParameterValues(*setup_.trajectory.model, InitialMotion{});
}

void FitProblem::runAt(const VecX& physical, const std::function<void(const TrajectorySetup&)>& run) {
  PhysicalModel& model = *setup_.trajectory.model;
  const ParameterValues caller = readParameterValues(model, InitialMotion{});
  try {
    restoreParameterValues(values_, model);
    space_.apply(physical, model, setup_.trajectory.initial);
    values_ = readParameterValues(model, InitialMotion{});
    run(setup_.trajectory);
  } catch (...) {
    restoreParameterValues(caller, model);
    throw;
  }
  restoreParameterValues(caller, model);
}

void FitProblem::apply(const VecX& physical) {
  runAt(physical, [](const TrajectorySetup&) {});
}

FitProblem FitProblem::withLoss(TrajectoryLoss& loss) const {
  FitProblem copy(*this);
  copy.setup_.loss = &loss;
  return copy;
}

double FitProblem::evaluate(const VecX& q, VecX& gradient) {
  double loss = 0.0;
  runAt(transforms_.toPhysical(q), [&](const TrajectorySetup& trajectory) {
    const TrajectoryGradient g = trajectoryGradient(trajectory, *setup_.loss, setup_.checkpoints);
    peakStateBytes_ = std::max(peakStateBytes_, g.checkpoints.peakStateBytes);
    gradient = transforms_.gradientToInternal(q, space_.gradient(*trajectory.model, g));
    loss = g.loss;
  });
  return loss;
}

double FitProblem::cost(const VecX& q) {
  double loss = 0.0;
  runAt(transforms_.toPhysical(q), [&](const TrajectorySetup& trajectory) { loss = trajectoryLoss(trajectory, *setup_.loss); });
  return loss;
}

VecX FitProblem::residuals(const VecX& q) {
  VecX r;
  runAt(transforms_.toPhysical(q), [&](const TrajectorySetup& trajectory) { r = trajectoryResiduals(trajectory, *setup_.loss); });
  return r;
}

ResidualFunction FitProblem::residualFunction() {
  if (!hasResiduals()) return {};
  return [this](const VecX& q) { return residuals(q); };
}

ObjectiveFunction FitProblem::objective() {
  return [this](const VecX& q, VecX& gradient) { return evaluate(q, gradient); };
}

void useGaussNewtonSteps(OptimizerOptions& optimizer, FitProblem& problem, const std::string& field) {
  if (!problem.hasResiduals())
    throw InputError(field + " needs a least-squares loss: displacement observations, or a capture with the plain "
                             "closest-point cost (no Huber kernel, no noise correction); the other point costs have no "
                             "residual form (use the hessian preconditioner)");
  optimizer.hessianPreconditioner = true;
  optimizer.hessian.gaussNewtonResiduals = problem.residualFunction();
  optimizer.hessian.refreshEvery = 1;
  optimizer.hessian.step = 1e-4;    // J by forward differences in internal coordinates
  optimizer.hessian.floor = 1e-12;  // damping's curvature is ~1e-6 of E's (thesis Fig. 5.7)
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
