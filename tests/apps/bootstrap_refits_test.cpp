// The refits of a bootstrap step: every (step, refit) has its own noise seed (refit 0 the
// seed a step always had), and the step's re-estimate is the mean in refit order of the
// refits without a failed forward solve (one refit: its point, bit for bit).
#include <gtest/gtest.h>

#include <cstring>
#include <set>

#include "apps/commands/bootstrap_refits.h"
#include "forward/errors.h"

namespace softfit::apps {
namespace {

OptimizationResult refit(std::initializer_list<double> point, bool solveFailed = false) {
  OptimizationResult r;
  r.point = VecX(static_cast<Eigen::Index>(point.size()));
  int i = 0;
  for (double v : point) r.point[i++] = v;
  r.solveFailed = solveFailed;
  return r;
}

TEST(BootstrapRefits, EveryStepAndRefitHasItsOwnSeedAndRefitZeroKeepsTheStepSeed) {
  const int steps = 3, refits = 4;
  std::set<std::uint64_t> seeds;
  for (int k = 0; k < steps; ++k) {
    EXPECT_EQ(bootstrapNoiseSeed(1000, steps, k, 0), 1000u + k);
    for (int j = 0; j < refits; ++j) seeds.insert(bootstrapNoiseSeed(1000, steps, k, j));
  }
  EXPECT_EQ(seeds.size(), static_cast<size_t>(steps * refits));
}

TEST(BootstrapRefits, OneRefitIsItsPointBitForBit) {
  const RefitMean m = combineRefits({refit({-0.0, 1.0 / 3.0})});
  ASSERT_EQ(m.point.size(), 2);
  EXPECT_TRUE(std::signbit(m.point[0]));
  EXPECT_EQ(m.point[1], 1.0 / 3.0);
  EXPECT_EQ(m.used, 1);
  EXPECT_EQ(m.failed, 0);
  EXPECT_FALSE(m.allFailed);
}

TEST(BootstrapRefits, MeanIsSummedInRefitOrderWithoutTheFailedRefits) {
  const double big = 9007199254740992.0;  // 2^53: big + 1 rounds to big
  const RefitMean m = combineRefits({refit({big}), refit({5.0}, true), refit({1.0}), refit({-big})});
  EXPECT_EQ(m.used, 3);
  EXPECT_EQ(m.failed, 1);
  EXPECT_FALSE(m.allFailed);
  // ((big + 1) - big) / 3 in refit order is 0; (big - big + 1) / 3 would be 1/3.
  EXPECT_EQ(m.point[0], 0.0);
}

TEST(BootstrapRefits, WhenEveryRefitFailedTheirPointsSoFarAreAveragedAndSaidSo) {
  const RefitMean m = combineRefits({refit({2.0}, true), refit({4.0}, true)});
  EXPECT_TRUE(m.allFailed);
  EXPECT_EQ(m.used, 2);
  EXPECT_EQ(m.failed, 2);
  EXPECT_EQ(m.point[0], 3.0);
}

TEST(BootstrapRefits, RejectsNoRefitsAndMixedSizes) {
  EXPECT_THROW(combineRefits({}), InputError);
  EXPECT_THROW(combineRefits({refit({1.0}), refit({1.0, 2.0})}), InputError);
}

}  // namespace
}  // namespace softfit::apps
