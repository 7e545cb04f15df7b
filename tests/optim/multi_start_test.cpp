// Multi-start: the starts are a fixed sequence, a start whose forward solve fails is
// reported and the best is chosen among the others.
#include <gtest/gtest.h>

#include "forward/errors.h"
#include "optim/fit_problem.h"

namespace softfit {
namespace {

// (q - 1)^2 per coordinate; the "forward solve" fails for q[0] < 0.
double bowlFailingOnTheLeft(const VecX& q, VecX& g) {
  if (q[0] < 0.0) throw SolveError("synthetic failure at q0 = " + std::to_string(q[0]));
  g = 2.0 * (q - VecX::Ones(q.size()));
  return (q - VecX::Ones(q.size())).squaredNorm();
}

TEST(MultiStart, StartsAreAFixedSequenceBeginningWithTheGivenOne) {
  MultiStartOptions multi;
  multi.starts = 4;
  VecX q0(2);
  q0 << 0.5, -0.25;
  const std::vector<VecX> a = multiStartPoints(q0, multi), b = multiStartPoints(q0, multi);
  ASSERT_EQ(a.size(), 4u);
  EXPECT_EQ(a[0], q0);
  for (size_t s = 0; s < a.size(); ++s) {
    EXPECT_EQ(a[s], b[s]);
    EXPECT_LE((a[s] - q0).cwiseAbs().maxCoeff(), multi.spread);
  }
  EXPECT_NE(a[1], a[2]);
}

TEST(MultiStart, AStartWhoseSolveFailsIsReportedAndTheOthersContinue) {
  OptimizerOptions options;
  options.maxIterations = 50;
  MultiStartOptions multi;
  multi.starts = 6;
  multi.spread = 1.0;
  VecX q0(1);
  q0 << -0.05;  // the given start fails at once; perturbed ones to the right converge
  std::vector<OptimizationResult> results;
  const OptimizationResult best = minimizeMultiStart(bowlFailingOnTheLeft, q0, options, multi, {}, &results);
  ASSERT_EQ(results.size(), 6u);
  EXPECT_TRUE(results[0].solveFailed);
  EXPECT_NE(results[0].stopReason.find("forward solve failed"), std::string::npos);
  int succeeded = 0;
  for (const OptimizationResult& r : results) succeeded += !r.solveFailed;
  ASSERT_GT(succeeded, 0) << "no perturbed start lies right of 0; change the seed";
  EXPECT_FALSE(best.solveFailed);
  EXPECT_NEAR(best.point[0], 1.0, 1e-6);
  EXPECT_FALSE(results[bestStartIndex(results)].solveFailed);
}

TEST(MultiStart, BestStartPrefersStartsWithoutAFailedSolveThenTheLowestCostThenTheFirst) {
  std::vector<OptimizationResult> r(4);
  r[0].cost = 1.0;
  r[0].solveFailed = true;
  r[1].cost = 3.0;
  r[2].cost = 2.0;
  r[3].cost = 2.0;
  EXPECT_EQ(bestStartIndex(r), 2);  // not the failed start 0 with the lower cost; 2 before 3
  for (auto& x : r) x.solveFailed = true;
  EXPECT_EQ(bestStartIndex(r), 0);  // all failed: the lowest cost
}

}  // namespace
}  // namespace softfit
