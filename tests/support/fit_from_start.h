#pragma once
// Runs one fit (defaultOptimizer of the loss) of the given parameters from `start` (physical values) for tests and
// prints the result next to the truth (the model's values; the fit leaves the model as it was).
#include <cstdio>

#include "optim/fit_problem.h"

namespace softfit::testing {

inline VecX fitFromStart(const FitSetup& setup, const std::vector<Parameter>& kinds, const VecX& start,
                         int maxIterations = 60) {
  FitProblem problem(setup, ParameterSpace(kinds, {}), defaultTransforms(kinds));
  const VecX truth = problem.space().values(*setup.trajectory.model);
  OptimizerOptions optimizer;
  optimizer.kind = defaultOptimizer(*setup.loss);
  optimizer.maxIterations = maxIterations;
  optimizer.gradientTolerance = 1e-12;
  const OptimizationResult r = minimize(problem.objective(), problem.toInternal(start), optimizer);
  const VecX p = problem.toPhysical(r.point);
  std::printf("fit: %s after %d iterations; result", r.stopReason.c_str(), r.iterations);
  for (int i = 0; i < p.size(); ++i) std::printf(" %.6g (true %.6g)", p[i], truth[i]);
  std::printf("\n");
  return p;
}

}  // namespace softfit::testing
