#include "forward/energies/ground_contact.h"

#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>

#include <cmath>

#include "support/finite_difference.h"

namespace softfit {
namespace {

TEST(Dilogarithm, KnownValues) {
  const double pi2 = M_PI * M_PI;
  EXPECT_NEAR(dilogarithm(0.0), 0.0, 1e-16);
  EXPECT_NEAR(dilogarithm(-1.0), -pi2 / 12.0, 1e-15);
  EXPECT_NEAR(dilogarithm(0.5), pi2 / 12.0 - 0.5 * std::log(2.0) * std::log(2.0), 1e-15);
  EXPECT_NEAR(dilogarithm(1.0), pi2 / 6.0, 1e-15);
  // Li2(-x) + Li2(-1/x) = -pi^2/6 - log(x)^2/2
  for (double x : {1.5, 3.0, 40.0, 1e6}) {
    const double l = std::log(x);
    EXPECT_NEAR(dilogarithm(-x) + dilogarithm(-1.0 / x), -pi2 / 6.0 - 0.5 * l * l, 1e-12 * (1 + l * l));
  }
  // series definition for small |x|
  double series = 0.0;
  for (int k = 1; k < 60; ++k) series += std::pow(-0.3, k) / (k * k);
  EXPECT_NEAR(dilogarithm(-0.3), series, 1e-15);
}

TEST(Softmin, PotentialDerivativesMatchFiniteDifferences) {
  const double alpha = 100.0;
  for (double d : {-2.0, -0.05, -0.01, -1e-4, 0.0, 1e-3, 0.02, 0.3, 5.0}) {
    const double h = 1e-6;
    const double dPhi = (softminZeroPotential(d + h, alpha) - softminZeroPotential(d - h, alpha)) / (2 * h);
    EXPECT_NEAR(dPhi, softminZero(d, alpha), 1e-7 * (1 + std::abs(d))) << d;
    const double dSoft = (softminZero(d + h, alpha) - softminZero(d - h, alpha)) / (2 * h);
    EXPECT_NEAR(dSoft, softminZeroDerivative(d, alpha), 1e-6) << d;
  }
  // Limits: no force far above, linear spring deep below, potential finite for huge depth.
  EXPECT_NEAR(softminZero(1.0, alpha), 0.0, 1e-40);
  EXPECT_NEAR(softminZero(-1.0, alpha), -1.0, 1e-40);
  EXPECT_NEAR(softminZeroPotential(-10.0, alpha), 50.0, 1e-3);
  EXPECT_TRUE(std::isfinite(softminZeroPotential(-1e6, alpha)));
  EXPECT_GT(softminZeroPotential(-1.0, alpha), softminZeroPotential(0.0, alpha));
}

GroundPlane tiltedPlane() {
  GroundPlane plane;
  plane.normal = Vec3(0.2, 1.0, -0.1).normalized();
  plane.offset = 0.05;
  plane.stiffness = 1e3;
  plane.sharpness = 50.0;
  return plane;
}

TEST(GroundContact, GradientAndHessianMatchFiniteDifferences) {
  const GroundPlane plane = tiltedPlane();
  GroundContact contact(plane, {0, 2, 3});
  VecX x(12);
  x << 0.1, -0.1, 0.0, 5, 5, 5, 0.3, -0.02, 0.1, -0.2, 0.01, 0.4;
  VecX g = VecX::Zero(12);
  contact.addGradient(x, g);
  const VecX gFd = testing::centralGradient([&](const VecX& y) { return contact.energy(y); }, x, 1e-7);
  EXPECT_LT(testing::relativeError(g, gFd), 1e-7);
  EXPECT_EQ(g.segment<3>(3).norm(), 0.0);  // node 1 is not a contact node

  BlockSparsePattern pattern(4, {});
  SparseMatrix H = pattern.zeroMatrix();
  BlockAssembler assembler(pattern, H);
  contact.addHessian(x, assembler);
  const MatX HFd = testing::centralJacobian(
      [&](const VecX& y) {
        VecX gy = VecX::Zero(12);
        contact.addGradient(y, gy);
        return gy;
      },
      x, 1e-7);
  EXPECT_LT(testing::relativeError(MatX(H), HFd), 1e-6);
  double deepest = 0.0;
  for (int node : {0, 2, 3}) deepest = std::max(deepest, -(plane.normal.dot(x.segment<3>(3 * node)) + plane.offset));
  EXPECT_GT(deepest, 0.0);
  EXPECT_DOUBLE_EQ(contact.maxPenetration(x), deepest);
}

TEST(GroundContact, CurvatureBoundDominatesTheHessianEverywhere) {
  const GroundPlane plane = tiltedPlane();
  // One node and one embedded point on three nodes (weights need not be a partition).
  GroundContact contact(plane, std::vector<ContactPoint>{{{0}, {1.0}}, {{1, 2, 3}, {0.2, 0.5, 0.3}}});
  BlockSparsePattern pattern(4, {{0, 1, 2, 3}});
  SparseMatrix B = pattern.zeroMatrix();
  BlockAssembler boundAssembler(pattern, B);
  contact.addCurvatureBound(boundAssembler);
  for (double height : {-1.0, -0.05, 0.0, 0.02, 1.0}) {
    VecX x = VecX::Zero(12);
    for (int i = 0; i < 4; ++i) x.segment<3>(3 * i) = Vec3(0.1 * i, height - 0.05 + 0.01 * i, -0.1 * i);
    SparseMatrix H = pattern.zeroMatrix();
    BlockAssembler assembler(pattern, H);
    contact.addHessian(x, assembler);
    // B - H(x) is PSD, and H -> B deep below the plane.
    EXPECT_GT(Eigen::SelfAdjointEigenSolver<MatX>(MatX(B - H)).eigenvalues().minCoeff(), -1e-9 * MatX(B).norm())
        << height;
    if (height == -1.0) {
      EXPECT_LT((MatX(B - H)).norm(), 1e-12 * MatX(B).norm());
    }
  }
}

}  // namespace
}  // namespace softfit

namespace softfit {
namespace {

TEST(GroundContact, EmbeddedPointsMatchFiniteDifferences) {
  GroundPlane plane;
  plane.normal = Vec3(0.1, 1.0, 0.3).normalized();
  plane.stiffness = 2e3;
  plane.sharpness = 40.0;
  plane.offset = -0.1;  // the first point penetrates, the second is above the plane
  // Two points embedded in a 4-node element (e.g. surface crossings of a cut cell).
  GroundContact contact(plane, std::vector<ContactPoint>{{{0, 1}, {0.3, 0.7}}, {{1, 2, 3}, {0.2, 0.5, 0.3}}});
  VecX x(12);
  x << 0.1, -0.05, 0.0, 0.4, 0.02, 0.1, 0.3, -0.03, 0.1, -0.2, 0.05, 0.4;
  VecX g = VecX::Zero(12);
  contact.addGradient(x, g);
  EXPECT_LT(testing::relativeError(g, testing::centralGradient([&](const VecX& y) { return contact.energy(y); }, x, 1e-7)),
            1e-7);
  BlockSparsePattern pattern(4, {{0, 1, 2, 3}});
  SparseMatrix H = pattern.zeroMatrix();
  BlockAssembler assembler(pattern, H);
  contact.addHessian(x, assembler);
  const MatX HFd = testing::centralJacobian(
      [&](const VecX& y) {
        VecX gy = VecX::Zero(12);
        contact.addGradient(y, gy);
        return gy;
      },
      x, 1e-7);
  EXPECT_LT(testing::relativeError(MatX(H), HFd), 1e-6);
  EXPECT_GT(contact.maxPenetration(x), 0.0);
}

}  // namespace
}  // namespace softfit
