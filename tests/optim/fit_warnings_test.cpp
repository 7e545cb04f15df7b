// The fit's end-point warnings: each fires on its case (an absurd E or density, a bounded
// parameter at an end of its range) and none on a plausible end.
#include "optim/fit_warnings.h"

#include <gtest/gtest.h>

#include "adjoint/parameter_space.h"

namespace softfit {
namespace {

std::vector<std::string> warningsFor(const std::string& list, std::initializer_list<double> values) {
  const std::vector<Parameter> parameters = parseParameterList(list);
  const ParameterSpace space(parameters, InitialMotion{});
  VecX v(static_cast<Eigen::Index>(values.size()));
  int i = 0;
  for (double x : values) v[i++] = x;
  return fitEndWarnings(space.names(), v, defaultTransforms(parameters));
}

TEST(FitWarnings, APlausibleEndHasNone) {
  EXPECT_TRUE(warningsFor("E,nu,density,alpha1", {5000.0, 0.3, 100.0, 0.1}).empty());
}

TEST(FitWarnings, AnAbsurdYoungsModulusOrDensity) {
  // The values a fit of a larger box to a smaller box's capture ended at.
  const auto w = warningsFor("E,nu", {7.5e-74, 6e-34});
  ASSERT_EQ(w.size(), 2u);
  EXPECT_NE(w[0].find("E = 7.5e-74 Pa is absurd"), std::string::npos) << w[0];
  EXPECT_NE(w[1].find("nu = 6e-34 ends at a bound of its range (0, 0.5)"), std::string::npos) << w[1];
  EXPECT_EQ(warningsFor("E", {2e12}).size(), 1u);
  EXPECT_EQ(warningsFor("density", {1e-3}).size(), 1u);
  EXPECT_EQ(warningsFor("density", {1e6}).size(), 1u);
}

TEST(FitWarnings, APoissonRatioAtTheUpperBound) {
  const auto w = warningsFor("nu", {0.49999999989});
  ASSERT_EQ(w.size(), 1u);
  EXPECT_NE(w[0].find("nu = 0.49999999989 ends at a bound"), std::string::npos) << w[0];
  EXPECT_TRUE(warningsFor("nu", {0.498}).empty());  // 0.498 is a rubber, not a bound
}

}  // namespace
}  // namespace softfit

namespace softfit {
namespace {

TEST(FitWarnings, AResidualFarAboveTheNoiseOrTheBodysSize) {
  // cost = sum_f w_f mean(d^2 / 2): 10 frames of d = 0.01 m give 5e-4.
  EXPECT_TRUE(fitResidualWarnings(5e-4, 10.0, 0.005, 0.5).empty());   // 2 sigma: explained
  const auto noisy = fitResidualWarnings(5e-4, 10.0, 0.002, 0.5);      // 5 sigma
  ASSERT_EQ(noisy.size(), 1u);
  EXPECT_NE(noisy[0].find("0.01 m, is 5.0 times the points' noise sigma"), std::string::npos) << noisy[0];
  EXPECT_TRUE(fitResidualWarnings(5e-4, 10.0, 0.0, 0.5).empty());     // no noise known: 2% of the size
  const auto large = fitResidualWarnings(5e-4, 10.0, 0.0, 0.1);        // 10% of the size
  ASSERT_EQ(large.size(), 1u);
  EXPECT_NE(large[0].find("10% of the body's size"), std::string::npos) << large[0];
  EXPECT_TRUE(fitResidualWarnings(5e-4, 0.0, 0.0, 0.1).empty());      // no frame with points
}

}  // namespace
}  // namespace softfit
