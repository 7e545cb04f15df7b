// The sweep's grid and Latin-hypercube points (apps/commands/sweep_grid.h).
#include "apps/commands/sweep_grid.h"

#include <gtest/gtest.h>

#include "forward/errors.h"

namespace softfit::apps {
namespace {

TEST(SweepGrid, ParsesAxesAndOrdersPointsWithTheLastAxisFastest) {
  const auto axes = parseSweepGrid("E=1e3:1e4:3,nu=0.2:0.45:2", false);
  ASSERT_EQ(axes.size(), 2u);
  EXPECT_EQ(axes[0].name, "E");
  EXPECT_EQ(axes[0].low, 1e3);
  EXPECT_EQ(axes[0].high, 1e4);
  EXPECT_EQ(axes[0].count, 3);
  const auto points = gridPoints(axes);
  ASSERT_EQ(points.size(), 6u);
  EXPECT_EQ(points[0][0], 1e3);
  EXPECT_EQ(points[0][1], 0.2);
  EXPECT_EQ(points[1][1], 0.45);  // ends exactly
  EXPECT_EQ(points[2][0], 5500.0);
  EXPECT_EQ(points[5][0], 1e4);
  const auto single = gridPoints(parseSweepGrid("alpha1=0.1:0.1:1", false));
  ASSERT_EQ(single.size(), 1u);
  EXPECT_EQ(single[0][0], 0.1);
}

TEST(SweepGrid, RejectsMalformedSpecsNamingTheOption) {
  for (const char* bad : {"", "E", "=1:2:2", "E=1:2", "E=1:2:3:4", "E=x:2:2", "E=1:inf:2", "E=2:1:2", "E=1:2:0",
                          "E=1:2:-1", "E=1:2:1.5", "E=1:2:1", "E=1:1:2", "E=1:2:2,E=3:4:2", "E=1:2:2,,nu=0:1:2",
                          "E=1:2:1001,nu=0.1:0.2:1000"}) {
    try {
      parseSweepGrid(bad, false);
      ADD_FAILURE() << "accepted \"" << bad << "\"";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("--grid"), std::string::npos) << e.what();
    }
  }
  EXPECT_THROW(parseSweepGrid("E=1:2:4", true), InputError);  // --lhs: no count
  EXPECT_THROW(parseSweepGrid("E=1:1", true), InputError);
}

TEST(SweepGrid, LatinHypercubeStratifiesEveryAxisAndRepeatsForASeed) {
  const auto axes = parseSweepGrid("E=0:10,nu=-1:1,alpha1=5:6", true);
  const auto a = latinHypercubePoints(axes, 10, 42), b = latinHypercubePoints(axes, 10, 42),
             c = latinHypercubePoints(axes, 10, 43);
  ASSERT_EQ(a.size(), 10u);
  for (int d = 0; d < 3; ++d) {
    std::vector<int> strata(10, 0);
    for (const VecX& p : a) {
      const double u = (p[d] - axes[d].low) / (axes[d].high - axes[d].low);
      ASSERT_GE(u, 0.0);
      ASSERT_LT(u, 1.0);
      ++strata[static_cast<int>(u * 10)];
    }
    for (int k = 0; k < 10; ++k) EXPECT_EQ(strata[k], 1) << "axis " << d << " stratum " << k;
  }
  for (size_t i = 0; i < a.size(); ++i) EXPECT_EQ(a[i], b[i]);
  EXPECT_NE(a[0], c[0]);
}

}  // namespace
}  // namespace softfit::apps
