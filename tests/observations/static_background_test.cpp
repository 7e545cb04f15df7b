// Static scenery for realistic depth images: the floor lies on the scene's ground plane
// (or below body and cameras), the wall is behind every camera, the clutter stays clear
// of the body, and appending re-indexes the triangles.
#include "observations/static_background.h"

#include <gtest/gtest.h>

#include <Eigen/Geometry>

#include "forward/mesh/triangle_bvh.h"
#include "observations/camera_rig.h"
#include "observations_test_support.h"

namespace softfit {
namespace {

TEST(StaticBackground, FloorOnTheGroundAndClutterClearOfTheBody) {
  const Vec3 lo(-0.2, 0.05, -0.2), hi(0.2, 0.45, 0.2);
  CameraRigOptions rig;
  rig.layout = CameraLayout::Hemisphere;
  const auto cameras = camerasAroundBox(lo, hi, 9, rig);
  BackgroundOptions o;
  o.hasGround = true;
  o.groundNormal = Vec3(0, 2, 0);  // not unit: the plane is 2 y - 0.1 = 0
  o.groundOffset = -0.1;
  const StaticGeometry g = makeStaticBackground(lo, hi, cameras, o);
  ASSERT_EQ(g.triangles.rows(), 2 + 2 + 2 * 12);
  ASSERT_EQ(g.positions.size(), 3 * (4 + 4 + 2 * 24));
  for (int i = 0; i < 4; ++i) EXPECT_NEAR(g.positions[3 * i + 1], 0.05, 1e-12) << "floor vertex " << i;
  const Vec3 c = 0.5 * (lo + hi);
  const double r = 0.5 * (hi - lo).norm();
  for (int i = 8; i < g.positions.size() / 3; ++i) {  // clutter: on or above the floor, clear of the body
    const Vec3 p = g.positions.segment<3>(3 * i);
    EXPECT_GE(p.y(), 0.05 - 1e-12);
    EXPECT_GT(Vec3(p.x() - c.x(), 0, p.z() - c.z()).norm(), 1.4 * r - 1e-12) << i;
  }
  // No camera's line of sight to the body centre crosses the scenery.
  const TriangleBvh bvh(g.positions, g.triangles);
  for (const Camera& cam : cameras) {
    TriangleBvh::RayHit hit;
    EXPECT_FALSE(bvh.intersectRay(cam.position, c - cam.position, hit, 0.0, 1.0)) << cam.name;
  }
  // The wall (vertices 4..7) is farther along its normal than every camera.
  const Vec3 wallNormal = (g.positions.segment<3>(15) - g.positions.segment<3>(12))
                              .cross(g.positions.segment<3>(18) - g.positions.segment<3>(12)).normalized();
  const double wall = wallNormal.dot(g.positions.segment<3>(12));
  for (const Camera& cam : cameras) {
    const double side = wallNormal.dot(cam.position) - wall, body = wallNormal.dot(c) - wall;
    EXPECT_GT(side * body, 0.0) << "a camera behind the wall";
  }
}

TEST(StaticBackground, WithoutGroundTheFloorIsBelowBodyAndCameras) {
  const Vec3 lo(-1, -1, -1), hi(1, 1, 1);
  const auto cameras = camerasAroundBox(lo, hi, 6);  // a full sphere, some below the body
  const StaticGeometry g = makeStaticBackground(lo, hi, cameras, BackgroundOptions{});
  double lowest = lo.y();
  for (const Camera& cam : cameras) lowest = std::min(lowest, cam.position.y());
  for (int i = 0; i < 4; ++i) EXPECT_LT(g.positions[3 * i + 1], lowest);
  testing::expectInputError([&] { makeStaticBackground(hi, lo, cameras, BackgroundOptions{}); }, {"bounding box"});
}

TEST(StaticBackground, AppendReindexesTheTriangles) {
  VecX x(9);
  x << 0, 0, 0, 1, 0, 0, 0, 1, 0;
  TriangleMatrix t(1, 3);
  t << 0, 1, 2;
  StaticGeometry g;
  g.positions = VecX::Constant(6, 5.0);
  g.triangles.resize(1, 3);
  g.triangles << 1, 0, 1;
  appendStaticGeometry(g, x, t);
  ASSERT_EQ(x.size(), 15);
  EXPECT_EQ(x[14], 5.0);
  ASSERT_EQ(t.rows(), 2);
  EXPECT_EQ(t(1, 0), 4);
  EXPECT_EQ(t(1, 1), 3);
}

}  // namespace
}  // namespace softfit
