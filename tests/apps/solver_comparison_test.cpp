// The solver comparison of `softfit solvers` and bench/solver_comparison_bench: every
// solver reaches the Newton reference, with its error history starting at 1.
#include "apps/commands/solver_comparison.h"

#include <gtest/gtest.h>

#include <cmath>

#include "support/step_scene.h"

namespace softfit {
namespace {

using testing::StepScene;
using testing::tight;

TEST(StepSolvers, AllReachTheNewtonMinimizerOnANeoHookeanStep) {
  StepScene scene(MaterialModel::NeoHookean);
  StepObjective objective(*scene.model, scene.problem);
  const ReferenceSolution ref = solveReference(objective);
  ASSERT_GT((ref.x - scene.problem.initialGuess).norm(), 0.05 * ref.x.norm());  // a real step
  const std::vector<SolverCase> cases = {{"newton clamp", tight(StepSolverType::Newton)},
                                         {"newton abs", tight(StepSolverType::Newton, EigenvalueFilter::Abs)},
                                         {"newton adaptive", tight(StepSolverType::Newton, EigenvalueFilter::Adaptive)},
                                         {"lbfgs", tight(StepSolverType::Lbfgs)}};
  for (const SolverCaseResult& r : compareSolvers(*scene.model, scene.problem, cases, ref)) {
    ASSERT_TRUE(r.failure.empty()) << r.label << ": " << r.failure;
    EXPECT_LT(r.relativeDistance * (ref.x - scene.problem.initialGuess).norm() / ref.x.norm(), 1e-8) << r.label;
    EXPECT_LT(std::abs(r.relativeError), 1e-10) << r.label;
    EXPECT_GT(r.solve.iterations, 1) << r.label;
    ASSERT_GE(r.errorHistory.size(), 2u);
    EXPECT_NEAR(r.errorHistory.front(), 1.0, 1e-12) << r.label;
  }
}

}  // namespace
}  // namespace softfit
