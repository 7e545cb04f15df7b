// Thesis grid point cost: point location in deformed cells (Newton inverse of the
// trilinear map), the reference SDF at the located points, gradients by finite
// differences (plain and Huber, points inside cells and extrapolated just outside),
// invariance under rigid motion, dropped far points, thread-count independence, and
// the capture loss over a grid.
#include "observations/grid_sdf_point_cost.h"

#include <gtest/gtest.h>

#include <Eigen/Geometry>
#include <random>

#include "grid/sdf_primitives.h"
#include "grid/trilinear_hex.h"
#include "observations/deformed_cell_locator.h"
#include "grid/embedded_surface.h"
#include "observations/grid_sdf_point_loss.h"
#include "observations/point_cloud_loss.h"
#include "observations_test_support.h"
#include "support/finite_difference.h"

namespace softfit {
namespace {

std::shared_ptr<const CutCellGrid> sphereGrid(double h) {
  LatticeOptions options;
  options.cellSize = h;
  return std::make_shared<const CutCellGrid>(sampleSdfLattice(SphereSdf(Vec3(0.05, 0.02, -0.03), 0.5), options));
}

// A smooth non-affine deformation of the rest positions.
VecX deformed(const VecX& rest, double amount) {
  VecX x = rest;
  for (int i = 0; i < x.size() / 3; ++i) {
    const Vec3 X = rest.segment<3>(3 * i);
    x.segment<3>(3 * i) = X + amount * Vec3(std::sin(2 * X[1]) + 0.3 * X[0], 0.5 * X[0] * X[2], std::cos(X[0]) * X[1]);
  }
  return x;
}

// Points near the sphere's surface of radius 0.5 (inside and outside by up to `spread`,
// or only inside),
// mapped like the body by `deform`.
PointCloud cloudNearSphere(int count, double spread, unsigned seed, double amount, bool insideOnly = false) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> n(0, 1);
  std::uniform_real_distribution<double> w(-1, 1);
  PointCloud c;
  c.points.resize(count, 3);
  VecX X(3 * count);
  for (int i = 0; i < count; ++i) {
    const Vec3 d = Vec3(n(rng), n(rng), n(rng)).normalized();
    const double r = insideOnly ? -std::abs(w(rng)) : w(rng);
    X.segment<3>(3 * i) = Vec3(0.05, 0.02, -0.03) + (0.5 + spread * r) * d;
  }
  const VecX x = deformed(X, amount);
  for (int i = 0; i < count; ++i) c.points.row(i) = x.segment<3>(3 * i).transpose();
  return c;
}

TEST(DeformedCellLocator, InvertsTheTrilinearMapOfDeformedCells) {
  const auto grid = sphereGrid(0.125);
  const VecX x = deformed(grid->restPositions(), 0.1);
  const DeformedCellLocator locator(*grid, x);
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> u(0, 1);
  for (int trial = 0; trial < 200; ++trial) {
    const int cell = static_cast<int>(u(rng) * grid->cellCount());
    const Vec3 xi(u(rng), u(rng), u(rng));
    const Eigen::Matrix<double, 8, 3> corners = locator.cellCorners(cell);
    const Vec3 p = corners.transpose() * trilinearShapeValues(xi);
    const auto loc = locator.locate(p);
    ASSERT_TRUE(loc.has_value()) << "trial " << trial;
    // Another cell may contain p only on a shared face; the mapped point must be p.
    const Vec3 back = locator.cellCorners(loc->cell).transpose() * trilinearShapeValues(loc->xi);
    EXPECT_LT((back - p).norm(), 1e-12);
    if (loc->cell == cell) {
      EXPECT_LT((loc->xi - xi).norm(), 1e-10);
    }
  }
  // Far away: nothing, also with extrapolation.
  EXPECT_FALSE(locator.locate(Vec3(5, 5, 5), 1.0).has_value());
}

// A node of a nearly empty cut cell may swing metres away (the thesis bunny): its cells
// are kept out of the bins and tested by every query. Every query must still find
// exactly the cells a brute-force search over all cells finds, in ascending order.
TEST(DeformedCellLocator, FindsTheCellsOfANodeFlungFarAway) {
  const auto grid = sphereGrid(0.125);
  VecX x = deformed(grid->restPositions(), 0.05);
  const int flung = grid->cells().front().nodes[0];
  x.segment<3>(3 * flung) += Vec3(3.0, -2.0, 2.5);  // 8+ cells: not binned
  const DeformedCellLocator locator(*grid, x);
  const auto bruteForce = [&](const Vec3& p) {
    std::vector<int> cells;
    for (int c = 0; c < grid->cellCount(); ++c) {
      const auto loc = invertTrilinearMap(locator.cellCorners(c), p);
      if (loc && loc->outside <= 1e-9) cells.push_back(c);
    }
    return cells;
  };
  std::mt19937_64 rng(9);
  std::uniform_real_distribution<double> u(0, 1);
  int inFlungCells = 0;
  for (int trial = 0; trial < 300; ++trial) {
    // Half the points in the cells of the flung node (far from the body), half anywhere.
    const int cell = trial % 2 == 0 ? 0 : static_cast<int>(u(rng) * grid->cellCount());
    const Vec3 p = locator.cellCorners(cell).transpose() * trilinearShapeValues(Vec3(u(rng), u(rng), u(rng)));
    std::vector<int> found;
    for (const CellLocation& loc : locator.containingCells(p)) found.push_back(loc.cell);
    EXPECT_EQ(found, bruteForce(p)) << "trial " << trial;
    if (found.empty()) continue;  // Newton may fail in the spike-shaped flung cell
    inFlungCells += found.front() == 0;
    const auto first = locator.locate(p, 1.0);
    ASSERT_TRUE(first.has_value());
    EXPECT_EQ(first->cell, found.front());
  }
  EXPECT_GT(inFlungCells, 75);
}

TEST(GridSdfPointCost, AtRestIsTheReferenceSdfAtThePoints) {
  const auto grid = sphereGrid(0.125);
  const PointCloud cloud = cloudNearSphere(300, 0.05, 3, 0.0, /*insideOnly=*/true);
  double expected = 0.0;
  for (int i = 0; i < cloud.size(); ++i) {
    const double phi = grid->lattice().interpolate(cloud.point(i));
    expected += 0.5 * phi * phi;
    EXPECT_LT(std::abs(phi), 0.06);  // the reference SDF is near the true distance
  }
  const GridSdfPointCostResult r = gridSdfPointCost(cloud, *grid, grid->restPositions(), RobustKernel{}, 2.0, nullptr);
  EXPECT_EQ(r.dropped, 0);
  EXPECT_NEAR(r.value, 2.0 * expected, 1e-12 * expected);
}

TEST(GridSdfPointCost, GradientMatchesFiniteDifferences) {
  const auto grid = sphereGrid(0.25);
  const VecX x = deformed(grid->restPositions(), 0.05);
  // Spread 0.2 puts some points outside every active cell (extrapolated).
  const PointCloud cloud = cloudNearSphere(150, 0.2, 7, 0.08);
  for (const double huber : {0.0, 0.03}) {
    const RobustKernel kernel{huber};
    const auto f = [&](const VecX& y) { return gridSdfPointCost(cloud, *grid, y, kernel, 1.5, nullptr).value; };
    VecX g = VecX::Zero(x.size());
    gridSdfPointCost(cloud, *grid, x, kernel, 1.5, &g);
    // Directional derivatives along random directions (location is piecewise smooth).
    std::mt19937_64 rng(11);
    std::normal_distribution<double> n(0, 1);
    for (int k = 0; k < 4; ++k) {
      VecX d(x.size());
      for (int i = 0; i < d.size(); ++i) d[i] = n(rng);
      const double eps = 1e-7;
      const double fd = (f(x + eps * d) - f(x - eps * d)) / (2 * eps);
      EXPECT_NEAR(g.dot(d), fd, 1e-6 * std::abs(fd) + 1e-12) << "huber " << huber << " direction " << k;
    }
  }
}

TEST(GridSdfPointCost, InvariantUnderRigidMotionOfBodyAndPoints) {
  const auto grid = sphereGrid(0.125);
  const VecX x = deformed(grid->restPositions(), 0.05);
  const PointCloud cloud = cloudNearSphere(200, 0.05, 2, 0.05);
  const Mat3 R = Eigen::AngleAxisd(0.7, Vec3(1, 2, 3).normalized()).toRotationMatrix();
  const Vec3 t(0.3, -1.0, 2.0);
  VecX y = x;
  for (int i = 0; i < y.size() / 3; ++i) y.segment<3>(3 * i) = R * x.segment<3>(3 * i) + t;
  PointCloud moved = cloud;
  for (int i = 0; i < cloud.size(); ++i) moved.points.row(i) = (R * cloud.point(i) + t).transpose();
  const double a = gridSdfPointCost(cloud, *grid, x, RobustKernel{}, 1.0, nullptr).value;
  const double b = gridSdfPointCost(moved, *grid, y, RobustKernel{}, 1.0, nullptr).value;
  EXPECT_NEAR(a, b, 1e-11 * a);
}

TEST(GridSdfPointCost, DropsFarPointsAndIgnoresThreadCount) {
  const auto grid = sphereGrid(0.125);
  const VecX x = deformed(grid->restPositions(), 0.05);
  PointCloud cloud = cloudNearSphere(1500, 0.05, 4, 0.05);
  cloud.points.row(10) << 9.0, 9.0, 9.0;
  cloud.points.row(20) << 0.05, 1.2, -0.03;  // 0.7 above the sphere: several cells out
  GridSdfPointCostOptions one, many;
  one.threads = 1;
  many.threads = 4;
  VecX g1 = VecX::Zero(x.size()), g4 = VecX::Zero(x.size());
  const auto r1 = gridSdfPointCost(cloud, *grid, x, RobustKernel{}, 1.0, &g1, one);
  const auto r4 = gridSdfPointCost(cloud, *grid, x, RobustKernel{}, 1.0, &g4, many);
  EXPECT_EQ(r1.dropped, 2);
  EXPECT_EQ(r1.value, r4.value);
  EXPECT_EQ((g1 - g4).cwiseAbs().maxCoeff(), 0.0);
  testing::expectInputError([&] { gridSdfPointCost(cloud, *grid, x.head(9), RobustKernel{}, 1.0, nullptr); },
                            {"positions"});
}

TEST(GridSdfPointLoss, MapsFramesToStepsAndNeedsAGrid) {
  const auto grid = sphereGrid(0.25);
  Capture capture;
  capture.source = "test-capture";
  for (int f = 0; f < 3; ++f) {
    CaptureFrame frame;
    frame.frame = f;
    frame.cloud = cloudNearSphere(50, 0.05, 20 + f, 0.0);
    capture.frames.push_back(frame);
  }
  PointCloudLossOptions options;
  options.stride = 2;
  GridSdfPointLoss loss(capture, grid, options);
  EXPECT_EQ(loss.lastStep(), 4);
  State s{grid->restPositions(), VecX::Zero(grid->restPositions().size()), 0.0};
  VecX gx = VecX::Zero(s.x.size()), gv = gx;
  EXPECT_EQ(loss.evaluate(1, s, gx, gv), 0.0);
  EXPECT_GT(loss.evaluate(2, s, gx, gv), 0.0);
  testing::expectInputError([&] { GridSdfPointLoss(capture, nullptr, options); }, {"test-capture", "grid"});
}

TEST(PointCloudSurfaceLoss, ClosestPointOnAGridsEmbeddedSurfaceHasTheChainedGradient) {
  const auto grid = sphereGrid(0.25);
  const VecX x = deformed(grid->restPositions(), 0.05);
  Capture capture;
  capture.source = "test-capture";
  capture.frames.push_back(CaptureFrame{0, 1.0, cloudNearSphere(60, 0.1, 9, 0.05)});
  // Plain, and with the noise correction (vertex areas of the embedded surface, reference
  // = the grid's rest positions): the gradient on the grid nodes is chained by W^T.
  for (const double sigma : {0.0, 0.02}) {
    PointCloudLossOptions options;
    options.noiseSigma = sigma;
    PointCloudSurfaceLoss loss(capture, extractEmbeddedSurface(*grid), options, grid->restPositions());
    const auto f = [&](const VecX& y) {
      VecX gx = VecX::Zero(y.size()), gv = gx;
      return loss.evaluate(0, State{y, VecX::Zero(y.size()), 0.0}, gx, gv);
    };
    VecX g = VecX::Zero(x.size()), gv = g;
    loss.evaluate(0, State{x, VecX::Zero(x.size()), 0.0}, g, gv);
    std::mt19937_64 rng(3);
    std::normal_distribution<double> n(0, 1);
    VecX d(x.size());
    for (int i = 0; i < d.size(); ++i) d[i] = n(rng);
    const double eps = 1e-7;
    const double fd = (f(x + eps * d) - f(x - eps * d)) / (2 * eps);
    EXPECT_NEAR(g.dot(d), fd, 1e-6 * std::abs(fd)) << "sigma " << sigma;
  }
}

}  // namespace
}  // namespace softfit
