// Clipping and quadrature of single cells: exact volumes of plane cuts, exactness for
// quadratics, compression that keeps the moments, degenerate (zero) corner values.
#include "grid/cut_cell_quadrature.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "grid/kuhn_clipping.h"
#include "grid/quadrature_compression.h"
#include "grid/trilinear_hex.h"

namespace softfit {
namespace {

// Corner values of the linear field phi(x) = n.x - d on the unit cell.
std::array<double, 8> planeValues(const Vec3& n, double d) {
  std::array<double, 8> phi;
  for (int c = 0; c < 8; ++c) phi[c] = n.dot(hexCorner(c)) - d;
  return phi;
}

// Exact volume of {n.x <= d} in the unit cube for n > 0 (inclusion-exclusion).
double exactPlaneCutVolume(const Vec3& n, double d) {
  double sum = 0.0;
  for (int c = 0; c < 8; ++c) {
    const Vec3 v = hexCorner(c);
    const int sign = ((c == 0 || c == 2 || c == 5 || c == 7) ? 1 : -1);  // (-1)^(x+y+z)
    sum += sign * std::pow(std::max(0.0, d - n.dot(v)), 3);
  }
  return sum / (6.0 * n[0] * n[1] * n[2]);
}

TEST(CutCellQuadrature, FullAndEmptyCells) {
  std::array<double, 8> inside, outside;
  inside.fill(-1.0);
  outside.fill(1.0);
  EXPECT_EQ(classifyCell(inside), CellCoverage::Full);
  EXPECT_EQ(classifyCell(outside), CellCoverage::Empty);
  EXPECT_DOUBLE_EQ(insideVolumeFraction(inside), 1.0);
  EXPECT_DOUBLE_EQ(insideVolumeFraction(outside), 0.0);
  EXPECT_TRUE(cellQuadrature(outside).empty());
  const auto gauss = cellQuadrature(inside);
  ASSERT_EQ(gauss.size(), 8u);
  double w = 0.0;
  for (const auto& p : gauss) w += p.weight;
  EXPECT_DOUBLE_EQ(w, 1.0);
  // Zero corners with the rest inside: full cell; zero corners with the rest outside: empty.
  inside[3] = 0.0;
  EXPECT_EQ(classifyCell(inside), CellCoverage::Full);
  outside[3] = 0.0;
  EXPECT_EQ(classifyCell(outside), CellCoverage::Empty);
}

TEST(CutCellQuadrature, PlaneCutVolumesAreExact) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> uniform(0.05, 1.0);
  for (int trial = 0; trial < 200; ++trial) {
    const Vec3 n(uniform(rng), uniform(rng), uniform(rng));
    const double d = std::uniform_real_distribution<double>(0.0, n.sum())(rng);
    const auto phi = planeValues(n, d);
    const double exact = exactPlaneCutVolume(n, d);
    EXPECT_NEAR(insideVolumeFraction(phi), exact, 1e-13) << "trial " << trial;
    for (const auto& options : {CutCellQuadratureOptions{SubTetRule::FourPoint, true},
                                CutCellQuadratureOptions{SubTetRule::FourPoint, false},
                                CutCellQuadratureOptions{SubTetRule::Centroid, false}}) {
      double w = 0.0;
      for (const auto& p : cellQuadrature(phi, options)) {
        EXPECT_GE(p.weight, 0.0);
        EXPECT_LE(n.dot(p.position), d + 1e-12) << "point outside the inside region";
        EXPECT_TRUE((p.position.array() >= -1e-12).all() && (p.position.array() <= 1 + 1e-12).all());
        w += p.weight;
      }
      EXPECT_NEAR(w, exact, 1e-12);
    }
  }
}

TEST(CutCellQuadrature, ClippedPiecesPartitionTheCell) {
  // Inside and outside parts (phi and -phi) add up to the whole cell for any values.
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  for (int trial = 0; trial < 500; ++trial) {
    std::array<double, 8> phi, flipped;
    for (int c = 0; c < 8; ++c) {
      phi[c] = uniform(rng);
      if (trial % 5 == 0 && c % 3 == 0) phi[c] = 0.0;  // exercise zero corners
      flipped[c] = -phi[c];
    }
    double in = 0.0, out = 0.0;
    for (const auto& t : clipCellInside(phi)) in += t.volume();
    for (const auto& t : clipCellInside(flipped)) out += t.volume();
    EXPECT_NEAR(in + out, 1.0, 1e-13) << "trial " << trial;
  }
}

// Integral of x^a y^b z^c over {n.x <= d} in the unit cube by a fine product midpoint
// rule in (x, y) with the z-integral done analytically.
double planeCutMoment(const Vec3& n, double d, int a, int b, int c) {
  const int m = 800;
  double sum = 0.0;
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < m; ++j) {
      const double x = (i + 0.5) / m, y = (j + 0.5) / m;
      const double top = std::clamp((d - n[0] * x - n[1] * y) / n[2], 0.0, 1.0);
      sum += std::pow(x, a) * std::pow(y, b) * std::pow(top, c + 1) / (c + 1);
    }
  return sum / (m * m);
}

TEST(CutCellQuadrature, IntegratesQuadraticsExactlyWithAndWithoutCompression) {
  const Vec3 n(0.7, 0.4, 0.9);
  const double d = 0.8;
  const auto phi = planeValues(n, d);
  const auto full = cellQuadrature(phi, {SubTetRule::FourPoint, false});
  const auto compressed = cellQuadrature(phi, {SubTetRule::FourPoint, true});
  EXPECT_GT(full.size(), 11u);
  EXPECT_LE(compressed.size(), 11u);
  std::printf("plane-cut cell: %zu sub-tet points compressed to %zu\n", full.size(), compressed.size());
  const int exponents[][3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {2, 0, 0}, {0, 2, 0},
                              {0, 0, 2}, {1, 1, 0}, {0, 1, 1}, {1, 0, 1}};
  for (const auto& e : exponents) {
    auto integrate = [&](const std::vector<LocalQuadraturePoint>& rule) {
      double s = 0.0;
      for (const auto& p : rule)
        s += p.weight * std::pow(p.position[0], e[0]) * std::pow(p.position[1], e[1]) * std::pow(p.position[2], e[2]);
      return s;
    };
    const double reference = planeCutMoment(n, d, e[0], e[1], e[2]);
    EXPECT_NEAR(integrate(full), reference, 2e-6) << e[0] << e[1] << e[2];
    EXPECT_NEAR(integrate(compressed), integrate(full), 1e-14) << e[0] << e[1] << e[2];
  }
}

// Each corner's lumped share sum_q w_q N_c(x_q) of a rule (1/8 of a full cell).
HexShapeValues cornerShares(const std::vector<LocalQuadraturePoint>& rule) {
  HexShapeValues share = HexShapeValues::Zero();
  for (const auto& p : rule) share += p.weight * trilinearShapeValues(p.position);
  return share;
}

double ruleWeight(const std::vector<LocalQuadraturePoint>& rule) {
  double w = 0.0;
  for (const auto& p : rule) w += p.weight;
  return w;
}

TEST(CutCellQuadrature, FractionFloorGivesEveryCornerItsShare) {
  const double floor = 1e-3;
  // A sliver at corner 0 (fraction 1.7e-5): the far corner's share is ~1e-12.
  const auto sliver = planeValues(Vec3(1, 1, 1), 0.047);
  std::vector<LocalQuadraturePoint> rule = cellQuadrature(sliver);
  const double fraction = ruleWeight(rule);
  const HexShapeValues before = cornerShares(rule);
  EXPECT_NEAR(fraction, std::pow(0.047, 3) / 6.0, 1e-15);
  EXPECT_LT(before.minCoeff(), 1e-10);
  const size_t points = rule.size();
  floorCellFraction(rule, floor);
  const HexShapeValues after = cornerShares(rule);
  EXPECT_EQ(rule.size(), points + 8);  // the 2x2x2 Gauss rule appended
  EXPECT_NEAR(ruleWeight(rule), floor - 8.0 * before.minCoeff() + fraction, 1e-16);
  EXPECT_GE(after.minCoeff(), floor / 8.0 - 1e-17);
  for (int c = 0; c < 8; ++c) EXPECT_NEAR(after[c] - before[c], (floor - 8.0 * before.minCoeff()) / 8.0, 1e-17);
  // A cell above the floor only by volume (fraction 2.7%) whose far corner sees little
  // of it is floored too; a half cell, a full cell, an empty rule and a floor of 0 are
  // left alone.
  std::vector<LocalQuadraturePoint> corner = cellQuadrature(planeValues(Vec3(1, 1, 1), 0.55));
  EXPECT_GT(ruleWeight(corner), 0.02);
  EXPECT_LT(8.0 * cornerShares(corner).minCoeff(), floor);
  floorCellFraction(corner, floor);
  EXPECT_NEAR(8.0 * cornerShares(corner).minCoeff(), floor, 1e-15);
  for (const auto& phi : {planeValues(Vec3(1, 0.2, 0.1), 0.6), planeValues(Vec3(1, 1, 1), 5.0)}) {
    std::vector<LocalQuadraturePoint> kept = cellQuadrature(phi);
    const size_t n = kept.size();
    floorCellFraction(kept, floor);
    EXPECT_EQ(kept.size(), n);
  }
  std::vector<LocalQuadraturePoint> empty;
  floorCellFraction(empty, floor);
  EXPECT_TRUE(empty.empty());
  std::vector<LocalQuadraturePoint> off = cellQuadrature(sliver);
  floorCellFraction(off, 0.0);
  EXPECT_EQ(off.size(), points);
}

TEST(QuadratureCompression, KeepsTrilinearAndQuadraticMomentsWithPositiveWeights) {
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  for (int trial = 0; trial < 100; ++trial) {
    std::array<double, 8> phi;
    for (double& v : phi) v = uniform(rng);
    const auto source = cellQuadrature(phi, {SubTetRule::FourPoint, false});
    const auto compressed = compressQuadrature(source);
    ASSERT_LE(compressed.size(), static_cast<size_t>(kCompressionBasisSize));
    Eigen::Matrix<double, 8, 1> massSource = Eigen::Matrix<double, 8, 1>::Zero(), massCompressed = massSource;
    Mat3 secondSource = Mat3::Zero(), secondCompressed = Mat3::Zero();
    for (const auto& p : source) {
      massSource += p.weight * trilinearShapeValues(p.position);
      secondSource += p.weight * p.position * p.position.transpose();
    }
    for (const auto& p : compressed) {
      EXPECT_GT(p.weight, 0.0);
      massCompressed += p.weight * trilinearShapeValues(p.position);
      secondCompressed += p.weight * p.position * p.position.transpose();
    }
    EXPECT_LT((massSource - massCompressed).cwiseAbs().maxCoeff(), 1e-14) << "trial " << trial;
    EXPECT_LT((secondSource - secondCompressed).cwiseAbs().maxCoeff(), 1e-14) << "trial " << trial;
  }
}

}  // namespace
}  // namespace softfit
