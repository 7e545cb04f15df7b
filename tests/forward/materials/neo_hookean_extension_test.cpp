// The C2 extension of the neo-Hookean log J below minJ.
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

#include "forward/materials/neo_hookean_material.h"
#include "material_test_utils.h"

namespace softfit {
namespace {

using test::relativelyClose;

Mat3 withDeterminant(double J) { return Vec3(1.3, 0.9, J / (1.3 * 0.9)).asDiagonal(); }

TEST(NeoHookeanExtension, MatchesExactModelAboveMinJ) {
  const NeoHookeanMaterial nh;
  const LameParameters p = test::testParameters();
  const Mat3 F = withDeterminant(0.05);
  const double J = F.determinant(), logJ = std::log(J);
  EXPECT_NEAR(nh.energyDensity(F, p),
              0.5 * p.mu * (F.squaredNorm() - 3.0) - p.mu * logJ + 0.5 * p.lambda * logJ * logJ, 1e-12);
}

TEST(NeoHookeanExtension, IsC2AcrossMinJ) {
  const NeoHookeanMaterial nh;
  const LameParameters p = test::testParameters();
  const double Jm = nh.minJ();
  const Mat3 below = withDeterminant(Jm * (1.0 - 1e-9)), above = withDeterminant(Jm * (1.0 + 1e-9));
  EXPECT_NEAR(nh.energyDensity(below, p), nh.energyDensity(above, p), 1e-6);
  EXPECT_TRUE(relativelyClose(nh.firstPiola(below, p), nh.firstPiola(above, p), 1e-6));
  EXPECT_TRUE(relativelyClose(nh.firstPiolaDerivative(below, p), nh.firstPiolaDerivative(above, p), 1e-6));
}

TEST(NeoHookeanExtension, FiniteAndGrowingForInvertedElements) {
  const NeoHookeanMaterial nh;
  const LameParameters p = test::testParameters();
  double previous = nh.energyDensity(withDeterminant(nh.minJ()), p);
  for (double J : {0.0, -0.1, -0.5, -1.0, -3.0}) {
    const Mat3 F = withDeterminant(J);
    const double psi = nh.energyDensity(F, p);
    EXPECT_TRUE(std::isfinite(psi));
    EXPECT_GT(psi, previous) << J;
    previous = psi;
    EXPECT_TRUE(nh.firstPiola(F, p).allFinite());
    EXPECT_TRUE(nh.firstPiolaDerivative(F, p).allFinite());
  }
}

TEST(NeoHookeanExtension, CustomMinJAndValidation) {
  const NeoHookeanMaterial nh(0.2);
  EXPECT_EQ(nh.minJ(), 0.2);
  const LameParameters p = test::testParameters();
  const Mat3 F = withDeterminant(0.1);  // in the extension region for minJ = 0.2 only
  EXPECT_NE(nh.energyDensity(F, p), NeoHookeanMaterial().energyDensity(F, p));
  // Stress is still the energy gradient in the extension region.
  Mat3 Pfd;
  const double h = 1e-6;
  for (int c = 0; c < 9; ++c) {
    Mat3 Fp = F, Fm = F;
    Fp(c) += h;
    Fm(c) -= h;
    Pfd(c) = (nh.energyDensity(Fp, p) - nh.energyDensity(Fm, p)) / (2.0 * h);
  }
  EXPECT_TRUE(relativelyClose(nh.firstPiola(F, p), Pfd, 1e-6));
  EXPECT_THROW(NeoHookeanMaterial(0.0), std::invalid_argument);
  EXPECT_THROW(NeoHookeanMaterial(1.0), std::invalid_argument);
  EXPECT_THROW(NeoHookeanMaterial(std::nan("")), std::invalid_argument);
}

}  // namespace
}  // namespace softfit
