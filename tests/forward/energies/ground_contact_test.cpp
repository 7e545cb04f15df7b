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
  // Two points embedded in a 4-node element (e.g. surface crossings of a cut cell), with
  // different areas (stiffness per unit area).
  GroundContact contact(plane,
                        std::vector<ContactPoint>{{{0, 1}, {0.3, 0.7}, 0.7}, {{1, 2, 3}, {0.2, 0.5, 0.3}, 2.3}});
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

namespace softfit {
namespace {

// Two points of different areas on a 4-node element; the first penetrates.
GroundContact weightedContact() {
  GroundPlane plane;
  plane.normal = Vec3(0.1, 1.0, 0.3).normalized();
  plane.stiffness = 2e3;
  plane.sharpness = 40.0;
  plane.offset = -0.1;
  return GroundContact(plane, {{{0, 1}, {0.3, 0.7}, 0.7}, {{1, 2, 3}, {0.2, 0.5, 0.3}, 2.3}});
}

// v_i = a + b (i mod m), 12 entries: a fixed adjoint / load vector for the tests below.
VecX adjointVector(double a, double b, int m) {
  VecX v(12);
  for (int i = 0; i < 12; ++i) v[i] = a + b * (i % m);
  return v;
}

VecX weightedState() {
  VecX x(12);
  x << 0.1, -0.05, 0.0, 0.4, 0.02, 0.1, 0.3, -0.03, 0.1, -0.2, 0.05, 0.4;
  return x;
}

// Every term of a contact point is k A_p times the term of the same point with area 1,
// so dropping the areas anywhere (energy, force, Hessian, bound, adjoints) fails here.
TEST(GroundContact, EveryTermScalesWithThePointArea) {
  const GroundContact weighted = weightedContact();
  const VecX x = weightedState();
  const VecX lambda = adjointVector(0.3, -0.07, 12), q = adjointVector(-0.02, 0.01, 5);
  BlockSparsePattern pattern(4, {{0, 1, 2, 3}});
  double energy = 0.0;
  VecX g = VecX::Zero(12), xBar = VecX::Zero(12);
  SparseMatrix H = pattern.zeroMatrix(), B = pattern.zeroMatrix();
  Vec3 nBar = Vec3::Zero(), nBarSemi = Vec3::Zero();
  double oBar = 0.0, oBarSemi = 0.0;
  for (const ContactPoint& p : weighted.points()) {
    ContactPoint unit = p;
    unit.area = 1.0;
    const GroundContact single(weighted.plane(), std::vector<ContactPoint>{unit});
    energy += p.area * single.energy(x);
    VecX gp = VecX::Zero(12);
    single.addGradient(x, gp);
    g += p.area * gp;
    SparseMatrix Hp = pattern.zeroMatrix(), Bp = pattern.zeroMatrix();
    BlockAssembler hp(pattern, Hp), bp(pattern, Bp);
    single.addHessian(x, hp);
    single.addCurvatureBound(bp);
    H += p.area * Hp;
    B += p.area * Bp;
    single.addParameterAdjoint(x, lambda, p.area, nBar, oBar);
    single.addSemiImplicitAdjoint(x, q, lambda, p.area, xBar, nBarSemi, oBarSemi);
  }
  EXPECT_NEAR(weighted.energy(x), energy, 1e-12 * std::abs(energy));
  EXPECT_GT(std::abs(energy), 0.0);
  VecX gw = VecX::Zero(12), xBarW = VecX::Zero(12);
  weighted.addGradient(x, gw);
  EXPECT_LT(testing::relativeError(gw, g), 1e-13);
  SparseMatrix Hw = pattern.zeroMatrix(), Bw = pattern.zeroMatrix();
  BlockAssembler hw(pattern, Hw), bw(pattern, Bw);
  weighted.addHessian(x, hw);
  weighted.addCurvatureBound(bw);
  EXPECT_LT(testing::relativeError(MatX(Hw), MatX(H)), 1e-13);
  EXPECT_LT(testing::relativeError(MatX(Bw), MatX(B)), 1e-13);
  Vec3 nBarW = Vec3::Zero(), nBarSemiW = Vec3::Zero();
  double oBarW = 0.0, oBarSemiW = 0.0;
  weighted.addParameterAdjoint(x, lambda, 1.0, nBarW, oBarW);
  weighted.addSemiImplicitAdjoint(x, q, lambda, 1.0, xBarW, nBarSemiW, oBarSemiW);
  EXPECT_LT((nBarW - nBar).norm(), 1e-12 * nBar.norm());
  EXPECT_NEAR(oBarW, oBar, 1e-12 * std::abs(oBar));
  EXPECT_LT(testing::relativeError(xBarW, xBar), 1e-13);
  EXPECT_LT((nBarSemiW - nBarSemi).norm(), 1e-12 * nBarSemi.norm());
  EXPECT_NEAR(oBarSemiW, oBarSemi, 1e-12 * std::abs(oBarSemi));
  EXPECT_GT(std::abs(oBar) * std::abs(oBarSemi), 0.0);
}

// The adjoint terms with weighted points against central differences: addParameterAdjoint
// differentiates lambda^T grad(x) in (normal, offset); addSemiImplicitAdjoint
// differentiates s = lambda^T [H(x) q + grad(x)] (J+ = H, -f_c = grad) in x, normal, offset.
TEST(GroundContact, WeightedAdjointTermsMatchFiniteDifferences) {
  const GroundContact base = weightedContact();
  const VecX x = weightedState();
  const VecX lambda = adjointVector(0.3, -0.07, 12), q = adjointVector(-0.02, 0.01, 5);
  BlockSparsePattern pattern(4, {{0, 1, 2, 3}});
  // Plane parameters packed as (n_x, n_y, n_z, offset); the normal is used as given.
  auto withPlane = [&](const VecX& theta) {
    GroundContact c = base;
    GroundPlane plane = c.plane();
    plane.normal = theta.head<3>();
    plane.offset = theta[3];
    c.setPlane(plane);
    return c;
  };
  auto firstTerm = [&](const GroundContact& c, const VecX& y) {
    VecX gy = VecX::Zero(12);
    c.addGradient(y, gy);
    return lambda.dot(gy);
  };
  auto semiTerm = [&](const GroundContact& c, const VecX& y) {
    SparseMatrix Hy = pattern.zeroMatrix();
    BlockAssembler assembler(pattern, Hy);
    c.addHessian(y, assembler);
    return lambda.dot(Hy * q) + firstTerm(c, y);
  };
  VecX theta(4);
  theta << base.plane().normal, base.plane().offset;
  Vec3 nBar = Vec3::Zero();
  double oBar = 0.0;
  base.addParameterAdjoint(x, lambda, 1.0, nBar, oBar);
  VecX adjoint(4);
  adjoint << nBar, oBar;
  const VecX fd = testing::centralGradient([&](const VecX& t) { return firstTerm(withPlane(t), x); }, theta, 1e-6);
  EXPECT_LT(testing::relativeError(adjoint, fd), 1e-7);

  VecX xBar = VecX::Zero(12);
  Vec3 nBarSemi = Vec3::Zero();
  double oBarSemi = 0.0;
  base.addSemiImplicitAdjoint(x, q, lambda, 1.0, xBar, nBarSemi, oBarSemi);
  const VecX xFd = testing::centralGradient([&](const VecX& y) { return semiTerm(base, y); }, x, 1e-6);
  EXPECT_LT(testing::relativeError(xBar, xFd), 1e-7);
  VecX semi(4);
  semi << nBarSemi, oBarSemi;
  const VecX semiFd = testing::centralGradient([&](const VecX& t) { return semiTerm(withPlane(t), x); }, theta, 1e-6);
  EXPECT_LT(testing::relativeError(semi, semiFd), 1e-7);
}

}  // namespace
}  // namespace softfit
