// Deterministic RANSAC plane fits: a tilted plane under 30% outliers (normal within 0.5
// degrees), bit-identical repeats, and the ground chosen over a larger wall.
#include <gtest/gtest.h>

#include <Eigen/Geometry>

#include <cmath>
#include <random>

#include "forward/errors.h"
#include "reconstruct/plane_ransac.h"

namespace softfit {
namespace {

struct Samples {
  PointMatrix points;
  std::vector<double> sigmas;
};

// `count` points: a fraction `outliers` uniform in a 2 m cube, the rest on the plane
// n . x + d = 0 (within 1 m of its foot point) with Gaussian noise sigma.
Samples planeWithOutliers(const Vec3& n, double d, int count, double outliers, double sigma, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::normal_distribution<double> g(0.0, sigma);
  const Vec3 a = n.unitOrthogonal(), b = n.cross(a);
  Samples s;
  s.points.resize(count, 3);
  s.sigmas.assign(count, sigma);
  for (int i = 0; i < count; ++i) {
    Vec3 p;
    if (i < outliers * count) p = Vec3(u(rng), u(rng), u(rng));
    else p = -d * n + u(rng) * a + u(rng) * b + g(rng) * n;
    s.points.row(i) = p.transpose();
  }
  return s;
}

double angleDegrees(const Vec3& a, const Vec3& b) {
  return std::acos(std::min(1.0, std::abs(a.normalized().dot(b.normalized())))) * 180.0 / M_PI;
}

TEST(PlaneRansac, TiltedPlaneUnderThirtyPercentOutliers) {
  const Vec3 n = Vec3(0.2, 1.0, -0.3).normalized();
  const Samples s = planeWithOutliers(n, 0.1, 5000, 0.3, 0.003, 7);
  const FittedPlane plane = fitPlaneRansac(s.points, s.sigmas);
  const double angle = angleDegrees(plane.normal, n);
  std::printf("normal error %.4f degrees, offset %.5f (true %.5f), %zu inliers\n", angle,
              plane.normal.dot(n) > 0 ? plane.offset : -plane.offset, 0.1, plane.inliers.size());
  EXPECT_LT(angle, 0.5);
  EXPECT_NEAR(plane.normal.dot(n) > 0 ? plane.offset : -plane.offset, 0.1, 0.003);
  EXPECT_GT(plane.inliers.size(), 3300u);  // 3500 plane points, 99.7% within 3 sigma
}

TEST(PlaneRansac, SameInputSameBits) {
  const Samples s = planeWithOutliers(Vec3::UnitY(), 0.0, 3000, 0.3, 0.002, 3);
  const FittedPlane a = fitPlaneRansac(s.points, s.sigmas), b = fitPlaneRansac(s.points, s.sigmas);
  EXPECT_EQ(a.normal, b.normal);
  EXPECT_EQ(a.offset, b.offset);
  EXPECT_EQ(a.inliers, b.inliers);
}

TEST(PlaneRansac, GroundIsTheUpFacingPlaneNotTheLargerWall) {
  // Wall x = 1 (3000 points) is larger than the floor y = 0 (2000 points).
  const Samples wall = planeWithOutliers(Vec3::UnitX(), -1.0, 3000, 0.0, 0.002, 1);
  const Samples floor = planeWithOutliers(Vec3::UnitY(), 0.0, 2000, 0.0, 0.002, 2);
  Samples all;
  all.points.resize(5000, 3);
  all.points << wall.points, floor.points;
  all.sigmas.assign(5000, 0.002);
  const FittedPlane ground = fitGroundPlane(all.points, all.sigmas, Vec3(0.1, 1.0, 0.0), Vec3(0, 2, 0), "test");
  EXPECT_LT(angleDegrees(ground.normal, Vec3::UnitY()), 0.5);
  EXPECT_GT(ground.normal.y(), 0.0) << "normal towards the cameras";
  EXPECT_NEAR(ground.offset, 0.0, 0.002);
}

TEST(PlaneRansac, OneCameraPitchedFarDownFindsTheFloorNotTheWallItFaces) {
  // One level camera at (0, 1.5, 2) looking 49 degrees down towards -z; a larger back
  // wall z = -1 faces it, a side wall x = 1 is beside it, the floor y = 0 is below.
  const double pitch = 49.0 * M_PI / 180.0;
  const Vec3 imageUp(0.0, std::cos(pitch), -std::sin(pitch)), imageRight = Vec3::UnitX();
  const Samples back = planeWithOutliers(Vec3::UnitZ(), 1.0, 3000, 0.0, 0.002, 1);
  const Samples side = planeWithOutliers(Vec3::UnitX(), -1.0, 2500, 0.0, 0.002, 3);
  const Samples floor = planeWithOutliers(Vec3::UnitY(), 0.0, 2000, 0.0, 0.002, 2);
  Samples all;
  all.points.resize(7500, 3);
  all.points << back.points, side.points, floor.points;
  all.sigmas.assign(7500, 0.002);
  const Vec3 camera(0.0, 1.5, 2.0);
  // The image-up test alone finds nothing within 30 degrees.
  EXPECT_THROW(fitGroundPlane(all.points, all.sigmas, imageUp, camera, "test"), InputError);
  const FittedPlane ground =
      fitGroundPlane(all.points, all.sigmas, imageUp, camera, "test", {}, 30.0, 4, {imageRight});
  EXPECT_LT(angleDegrees(ground.normal, Vec3::UnitY()), 0.5);
  EXPECT_GT(ground.normal.y(), 0.0);
  EXPECT_NEAR(ground.offset, 0.0, 0.002);
  // A rolled camera's axis does not let a wall pass: the wall facing it is still refused.
  const Samples wallOnly = planeWithOutliers(Vec3::UnitZ(), 1.0, 1000, 0.0, 0.002, 1);
  EXPECT_THROW(fitGroundPlane(wallOnly.points, wallOnly.sigmas, imageUp, camera, "test", {}, 30.0, 4, {imageRight}),
               InputError);
}

TEST(PlaneRansac, NoUpFacingPlaneIsAnInputErrorNamingTheContext) {
  const Samples wall = planeWithOutliers(Vec3::UnitX(), -1.0, 1000, 0.0, 0.002, 1);
  try {
    fitGroundPlane(wall.points, wall.sigmas, Vec3::UnitY(), Vec3::Zero(), "capture.json: rest frame 0");
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("rest frame 0"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace softfit
