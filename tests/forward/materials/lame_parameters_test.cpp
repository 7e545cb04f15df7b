#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "forward/errors.h"
#include "forward/materials/material.h"

namespace softfit {
namespace {

TEST(LameParameters, ConvertsYoungPoisson) {
  const LameParameters p = lameFromYoungPoisson(1e5, 0.3);
  EXPECT_NEAR(p.mu, 1e5 / 2.6, 1e-9);
  EXPECT_NEAR(p.lambda, 1e5 * 0.3 / (1.3 * 0.4), 1e-9);
  const LameParameters zero = lameFromYoungPoisson(2.0, 0.0);
  EXPECT_DOUBLE_EQ(zero.mu, 1.0);
  EXPECT_DOUBLE_EQ(zero.lambda, 0.0);
  const LameParameters auxetic = lameFromYoungPoisson(3.0, -0.5);  // negative Poisson ratio is allowed
  EXPECT_DOUBLE_EQ(auxetic.mu, 3.0);
  EXPECT_DOUBLE_EQ(auxetic.lambda, -0.5 * 3.0 / (0.5 * 2.0));
  const LameParameters nearlyIncompressible = lameFromYoungPoisson(1e6, 0.495);
  EXPECT_NEAR(nearlyIncompressible.lambda / nearlyIncompressible.mu, 2 * 0.495 / (1 - 2 * 0.495), 1e-9);
}

std::string messageFor(double E, double nu, const std::string& field) {
  try {
    lameFromYoungPoisson(E, nu, field);
  } catch (const InputError& e) {
    return e.what();
  }
  return "<accepted>";
}

void expectContains(const std::string& message, const std::string& part) {
  EXPECT_NE(message.find(part), std::string::npos) << "'" << message << "' lacks '" << part << "'";
}

TEST(LameParameters, RejectsInvalidPoissonRatio) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  for (double nu : {0.5, 0.7, -1.0, -1.5, nan, inf}) {
    const std::string msg = messageFor(1e5, nu, "bodies[2].material");
    expectContains(msg, "bodies[2].material.poisson_ratio");
    expectContains(msg, "(-1, 0.5)");
  }
  EXPECT_EQ(messageFor(1e5, 0.5, "material"), "material.poisson_ratio = 0.5: must lie in (-1, 0.5)");
  expectContains(messageFor(1e5, 0.7, "material"), "= 0.7:");
  expectContains(messageFor(1e5, nan, "material"), "= nan:");
}

TEST(LameParameters, RejectsInvalidYoungsModulus) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  for (double E : {0.0, -1.0, nan, inf, -inf}) {
    const std::string msg = messageFor(E, 0.3, "bodies[0].material");
    expectContains(msg, "bodies[0].material.youngs_modulus");
  }
  expectContains(messageFor(-1.0, 0.3, "material"), "material.youngs_modulus = -1:");
  expectContains(messageFor(0.0, 0.3, "material"), "= 0:");
  expectContains(messageFor(nan, 0.3, "material"), "= nan:");
}

TEST(LameParameters, DefaultFieldName) {
  try {
    lameFromYoungPoisson(1.0, 0.5);
    FAIL();
  } catch (const InputError& e) {
    expectContains(e.what(), "material.poisson_ratio");
  }
}

}  // namespace
}  // namespace softfit

namespace softfit {
namespace {

TEST(LameParameters, YoungPoissonRoundTripAndChainRule) {
  for (const auto& [E, nu] : {std::pair{2000.0, 0.3}, std::pair{1e6, 0.495}, std::pair{3.0, -0.4}}) {
    const LameParameters p = lameFromYoungPoisson(E, nu);
    const YoungPoisson back = youngPoissonFromLame(p);
    EXPECT_NEAR(back.youngs, E, 1e-12 * E);
    EXPECT_NEAR(back.poisson, nu, 1e-12);
    // L = a mu + b lambda: (dL/dE, dL/dnu) against central differences of the conversion.
    const double a = 0.7, b = -1.3;
    const auto L = [&](double e, double n) {
      const LameParameters q = lameFromYoungPoisson(e, n);
      return a * q.mu + b * q.lambda;
    };
    const YoungPoisson g = youngPoissonGradient(p, a, b);
    const double hE = 1e-6 * E, hNu = 1e-7;
    EXPECT_NEAR(g.youngs, (L(E + hE, nu) - L(E - hE, nu)) / (2 * hE), 1e-6 * std::abs(g.youngs) + 1e-12);
    EXPECT_NEAR(g.poisson, (L(E, nu + hNu) - L(E, nu - hNu)) / (2 * hNu), 1e-6 * std::abs(g.poisson) + 1e-9);
  }
}

}  // namespace
}  // namespace softfit
