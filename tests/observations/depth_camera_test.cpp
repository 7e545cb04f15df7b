// Virtual depth cameras: known depths of a box face, back-projected points on the
// surface, look-at conventions, camera rigs, cams.json, speed, and Gaussian noise.
#include "observations/depth_renderer.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>

#include "forward/mesh/temp_directory.h"
#include "observations/camera_json.h"
#include "observations/camera_rig.h"
#include "observations/gaussian_noise.h"
#include "observations/point_surface_cost.h"
#include "observations/render_capture.h"
#include "observations_test_support.h"

namespace softfit {
namespace {

using testing::expectInputError;
using testing::makeBoxSurface;
using testing::writeFile;

CameraIntrinsics intrinsics64() {
  CameraIntrinsics k;
  k.width = 64;
  k.height = 48;
  k.fx = 100;
  k.fy = 92;
  k.cx = 31.5;
  k.cy = 23.5;
  return k;
}

TEST(DepthCamera, LookAtFollowsTheOpenCvConvention) {
  const Camera cam = lookAtCamera(intrinsics64(), Vec3(0, 0, 5), Vec3(0, 0, 0), Vec3(0, 1, 0));
  EXPECT_NEAR((cam.rotation.col(2) - Vec3(0, 0, -1)).norm(), 0, 1e-15);  // looks along -z
  EXPECT_NEAR((cam.rotation.col(1) - Vec3(0, -1, 0)).norm(), 0, 1e-15);  // image y points down
  EXPECT_NEAR((cam.rotation.col(0) - Vec3(1, 0, 0)).norm(), 0, 1e-15);
  EXPECT_NEAR(cam.rotation.determinant(), 1.0, 1e-15);
  // A point above the target appears in the upper half of the image (v < cy).
  const Vec3 pc = cam.toCamera(Vec3(0, 1, 0));
  EXPECT_LT(pc.y() / pc.z() * cam.intrinsics.fy + cam.intrinsics.cy, cam.intrinsics.cy);
  expectInputError([] { lookAtCamera(intrinsics64(), Vec3(0, 0, 5), Vec3(0, 0, 5), Vec3(0, 1, 0), "cam"); },
                   {"cam", "coincide"});
  expectInputError([] { lookAtCamera(intrinsics64(), Vec3(0, 5, 0), Vec3(0, 0, 0), Vec3(0, 1, 0), "cam"); },
                   {"cam", "parallel"});
}

TEST(DepthCamera, BoxFaceAtKnownDistanceHasExactDepth) {
  // Unit box [-1, 1]^3 seen head-on from z = 5: the face z = 1 is 4 away and fills the
  // pixels with |u - cx| < fx / 4 and |v - cy| < fy / 4; side faces are back-facing.
  const auto s = makeBoxSurface(Vec3(-1, -1, -1), Vec3(1, 1, 1), 3, 0.0, 0);
  const Camera cam = lookAtCamera(intrinsics64(), Vec3(0, 0, 5), Vec3(0, 0, 0), Vec3(0, 1, 0));
  const DepthMap map = renderDepth(cam, s.positions, s.triangles);
  ASSERT_EQ(map.width, 64);
  ASSERT_EQ(map.height, 48);
  int hits = 0, expectedHits = 0;
  for (int v = 0; v < 48; ++v)
    for (int u = 0; u < 64; ++u) {
      const bool inside = std::abs(u - 31.5) < 25.0 && std::abs(v - 23.5) < 23.0;
      expectedHits += inside;
      if (inside) {
        EXPECT_NEAR(map.at(u, v), 4.0, 1e-12) << u << ", " << v;
        ++hits;
      } else {
        EXPECT_EQ(map.at(u, v), 0.0) << u << ", " << v;
      }
    }
  EXPECT_EQ(hits, expectedHits);
  EXPECT_EQ(map.validCount(), expectedHits);
  const PointCloud cloud = depthMapToCloud(cam, map);
  ASSERT_EQ(cloud.size(), expectedHits);
  for (int i = 0; i < cloud.size(); ++i) {
    EXPECT_NEAR(cloud.points(i, 2), 1.0, 1e-12);
    EXPECT_LE(std::abs(cloud.points(i, 0)), 1.0);
    EXPECT_LE(std::abs(cloud.points(i, 1)), 1.0);
  }
  // Pixel (u, v) maps to x = (u - cx) / fx * 4, y = -(v - cy) / fy * 4 (image y down); first hit: (7, 1).
  EXPECT_NEAR(cloud.points(0, 0), (7 - 31.5) / 100 * 4, 1e-12);
  EXPECT_NEAR(cloud.points(0, 1), -(1 - 23.5) / 92.0 * 4, 1e-12);
}

TEST(DepthCamera, PointsLieOnTheDeformedSurfaceFromEveryRigCamera) {
  const auto s = makeBoxSurface(Vec3(-0.4, 0, -0.3), Vec3(0.4, 0.5, 0.3), 4, 0.03, 7);
  Vec3 lo, hi;
  boundingBox(s.positions, lo, hi);
  CameraRigOptions rig;
  rig.width = 40;
  rig.height = 30;
  const auto cams = camerasAroundBox(lo, hi, 9, rig);
  ASSERT_EQ(cams.size(), 9u);
  const TriangleBvh bvh(s.positions, s.triangles);
  const Vec3 center = 0.5 * (lo + hi);
  for (const Camera& cam : cams) {
    validatePose(cam.rotation, cam.position, cam.name);
    EXPECT_GT((cam.rotation.col(2).dot((center - cam.position).normalized())), 1 - 1e-12) << cam.name;
    const DepthMap map = renderDepth(cam, bvh);
    const PointCloud cloud = depthMapToCloud(cam, map);
    EXPECT_GT(cloud.size(), 100) << cam.name;
    // The box stays inside the image: no hit on the image border.
    for (int u = 0; u < map.width; ++u) EXPECT_EQ(map.at(u, 0) + map.at(u, map.height - 1), 0.0) << cam.name;
    int i = 0;
    for (int v = 0; v < map.height; ++v)
      for (int u = 0; u < map.width; ++u) {
        if (map.at(u, v) == 0.0) continue;
        const Vec3 p = cloud.point(i++);
        EXPECT_LT(std::sqrt(bvh.closestPoint(p).distanceSquared), 1e-9) << cam.name;
        EXPECT_NEAR(cam.toCamera(p).z(), map.at(u, v), 1e-12);  // depth = camera-frame z
      }
  }
  // Ring and hemisphere layouts: cameras above the plane normal to up.
  rig.layout = CameraLayout::Ring;
  for (const Camera& cam : camerasAroundBox(lo, hi, 9, rig)) EXPECT_GT(cam.position.y(), center.y());
  rig.layout = CameraLayout::Hemisphere;
  for (const Camera& cam : camerasAroundBox(lo, hi, 9, rig)) EXPECT_GT(cam.position.y(), center.y());
  expectInputError([&] { camerasAroundBox(lo, hi, 0, rig); }, {"count"});
}

TEST(DepthCamera, RendersA5kTriangleSurfaceQuickly) {
  const auto s = makeBoxSurface(Vec3(0, 0, 0), Vec3(1, 1, 1), 20, 0.005, 9);
  ASSERT_GE(s.triangles.rows(), 4800);
  const Camera cam = lookAtCamera(intrinsicsFromFieldOfView(100, 100, 50), Vec3(2.5, 2, 3), Vec3(0.5, 0.5, 0.5),
                                  Vec3(0, 1, 0));
  const auto start = std::chrono::steady_clock::now();
  const DepthMap map = renderDepth(cam, s.positions, s.triangles);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_GT(map.validCount(), 1000);
  EXPECT_LT(seconds, 0.5) << "100x100 render of " << s.triangles.rows() << " triangles took " << seconds << " s";
  // Deterministic: a second render is bit-identical.
  EXPECT_EQ(renderDepth(cam, s.positions, s.triangles).depth, map.depth);
}

TEST(GaussianNoise, StatisticsAndReproducibility) {
  const int n = 40000;
  PointCloud c;
  c.points = PointMatrix::Zero(n, 3);
  GaussianNoise rng(42);
  const double sigma = 0.01;
  addGaussianNoise(c, sigma, rng);
  const Eigen::Map<const VecX> all(c.points.data(), 3 * n);
  const double mean = all.mean();
  const double stdDev = std::sqrt((all.array() - mean).square().mean());
  EXPECT_LT(std::abs(mean), 4 * sigma / std::sqrt(3.0 * n));
  EXPECT_NEAR(stdDev / sigma, 1.0, 0.01);
  int within = 0;
  for (int i = 0; i < all.size(); ++i) within += std::abs(all[i]) <= sigma;
  EXPECT_NEAR(within / (3.0 * n), 0.682689, 0.006);
  for (int k = 0; k < 3; ++k) EXPECT_NEAR(c.points.col(k).mean(), 0.0, 4 * sigma / std::sqrt(1.0 * n));
  // Same seed, same bits; another seed, other numbers.
  PointCloud again;
  again.points = PointMatrix::Zero(n, 3);
  GaussianNoise rng2(42);
  addGaussianNoise(again, sigma, rng2);
  EXPECT_EQ(again.points, c.points);
  PointCloud other;
  other.points = PointMatrix::Zero(n, 3);
  GaussianNoise rng3(43);
  addGaussianNoise(other, sigma, rng3);
  EXPECT_NE(other.points, c.points);
  expectInputError([&] { addGaussianNoise(other, -1.0, rng3); }, {"sigma"});
}

TEST(DepthCamera, RenderCaptureUsesStrideSeedAndTimes) {
  const auto s = makeBoxSurface(Vec3(-0.4, 0, -0.3), Vec3(0.4, 0.5, 0.3), 2, 0.0, 0);
  const std::vector<State> states = testing::translatedStates(s.positions, 5, 0.01, 0.01);
  Vec3 lo, hi;
  boundingBox(s.positions, lo, hi);
  CameraRigOptions rig;
  rig.width = 24;
  rig.height = 24;
  rig.margin = 1.5;
  const auto cams = camerasAroundBox(lo, hi, 3, rig);
  const Capture c = renderCapture(states, s.triangles, cams, NoiseOptions{0.0, 0}, 2);
  ASSERT_EQ(c.frameCount(), 3);  // steps 0, 2, 4
  EXPECT_NEAR(c.dt, 0.02, 1e-15);
  EXPECT_EQ(c.frames[1].cloud.points, renderCloud(states[2].x, s.triangles, cams).points);
  const Capture n1 = renderCapture(states, s.triangles, cams, NoiseOptions{1e-3, 7}, 2, 0.01);
  const Capture n2 = renderCapture(states, s.triangles, cams, NoiseOptions{1e-3, 7}, 2, 0.01);
  EXPECT_EQ(n1.dt, 0.02);
  for (int f = 0; f < 3; ++f) {
    EXPECT_EQ(n1.frames[f].cloud.points, n2.frames[f].cloud.points);
    EXPECT_NE(n1.frames[f].cloud.points, c.frames[f].cloud.points);
    EXPECT_LT((n1.frames[f].cloud.points - c.frames[f].cloud.points).cwiseAbs().maxCoeff(), 7e-3);
  }
  // Cameras looking away see nothing: the frame is named.
  std::vector<Camera> away = {lookAtCamera(cams[0].intrinsics, Vec3(0, 0, 5), Vec3(0, 0, 10), Vec3(0, 1, 0))};
  expectInputError([&] { renderCapture(states, s.triangles, away, {}, 2); }, {"frame 0", "no camera sees"});
}

TEST(DepthCamera, NoiseReplicatesHoldIndependentNoisyCopiesOfEachFrame) {
  const auto s = makeBoxSurface(Vec3(-0.4, 0, -0.3), Vec3(0.4, 0.5, 0.3), 2, 0.0, 0);
  std::vector<State> states(3, State{s.positions, VecX::Zero(s.positions.size()), 0.0});
  Vec3 lo, hi;
  boundingBox(s.positions, lo, hi);
  CameraRigOptions rig;
  rig.width = rig.height = 20;
  const auto cams = camerasAroundBox(lo, hi, 3, rig);
  const Capture one = renderCapture(states, s.triangles, cams, NoiseOptions{1e-3, 5, 1}, 1, 0.01);
  const Capture three = renderCapture(states, s.triangles, cams, NoiseOptions{1e-3, 5, 3}, 1, 0.01);
  const PointMatrix clean = renderCloud(s.positions, s.triangles, cams).points;
  const int n = static_cast<int>(clean.rows());
  ASSERT_GT(n, 100);
  ASSERT_EQ(three.frameCount(), 3);
  for (int f = 0; f < 3; ++f) {
    const PointMatrix& p = three.frames[f].cloud.points;
    ASSERT_EQ(p.rows(), 3 * n);
    for (int c = 0; c < 3; ++c) {
      const PointMatrix copy = p.middleRows(c * n, n);
      EXPECT_LT((copy - clean).cwiseAbs().maxCoeff(), 7e-3);  // each copy is the frame plus noise
      if (c > 0) {
        EXPECT_NE(copy, p.topRows(n));  // with its own draws
      }
    }
  }
  // Copy 0 of frame 0 is the one-replicate capture's frame 0 (the stream starts alike).
  EXPECT_EQ(three.frames[0].cloud.points.topRows(n), one.frames[0].cloud.points);
  expectInputError([&] { renderCapture(states, s.triangles, cams, NoiseOptions{1e-3, 5, 0}, 1, 0.01); },
                   {"replicates"});
}

TEST(DepthCamera, NoisyRenderingCostsHalfSigmaSquaredPerPoint) {
  // Correspondence-free cost of a rendered cloud against its own surface: ~0 without
  // noise; with isotropic noise only the normal component counts, E[d^2] = sigma^2.
  const auto s = makeBoxSurface(Vec3(0, 0, 0), Vec3(1, 0.8, 0.6), 6, 0.01, 4);
  Vec3 lo, hi;
  boundingBox(s.positions, lo, hi);
  CameraRigOptions rig;
  rig.width = rig.height = 60;
  const auto cams = camerasAroundBox(lo, hi, 9, rig);
  std::vector<State> states(1, State{s.positions, VecX::Zero(s.positions.size()), 0.0});
  const Capture clean = renderCapture(states, s.triangles, cams, NoiseOptions{}, 1, 0.01);
  const int n = clean.frames[0].cloud.size();
  ASSERT_GT(n, 5000);
  EXPECT_LT(pointToSurfaceCost(clean.frames[0].cloud, s.positions, s.triangles, {}, 1.0, nullptr), 1e-20 * n);
  const double sigma = 2e-3;
  const Capture noisy = renderCapture(states, s.triangles, cams, NoiseOptions{sigma, 3}, 1, 0.01);
  const double cost = pointToSurfaceCost(noisy.frames[0].cloud, s.positions, s.triangles, {}, 1.0, nullptr);
  EXPECT_NEAR(cost / (0.5 * sigma * sigma * n), 1.0, 0.05);
}

TEST(CameraJson, RoundTripAndErrors) {
  TempDirectory dir("softfit-cams-");
  const auto cams = camerasAroundBox(Vec3(0, 0, 0), Vec3(1, 1, 1), 4);
  writeCameras(dir.file("cams.json"), cams);
  const auto back = readCameras(dir.file("cams.json"));
  ASSERT_EQ(back.size(), 4u);
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(back[i].name, cams[i].name);
    EXPECT_EQ(back[i].rotation, cams[i].rotation);
    EXPECT_EQ(back[i].position, cams[i].position);
    EXPECT_EQ(back[i].intrinsics.fx, cams[i].intrinsics.fx);
    EXPECT_EQ(back[i].intrinsics.width, cams[i].intrinsics.width);
  }
  const std::string p = dir.file("c.json");
  writeFile(p, R"({"cameras": [{"fx": 100, "fy": 100, "cx": 10, "cy": 10, "width": 20, "height": 20,
                  "look_at": {"eye": [0, 0, 5], "target": [0, 0, 0]}}]})");
  const auto one = readCameras(p);
  EXPECT_NEAR((one[0].rotation.col(2) - Vec3(0, 0, -1)).norm(), 0, 1e-15);
  writeFile(p, R"([{"fx": 100, "fy": 100, "cx": 10, "cy": 10, "width": 20, "height": 20}])");
  expectInputError([&] { readCameras(p); }, {p, "cameras[0]", "pose"});
  writeFile(p, R"([{"fx": -1, "fy": 100, "cx": 10, "cy": 10, "width": 20, "height": 20,
                   "look_at": {"eye": [0, 0, 5], "target": [0, 0, 0]}}])");
  expectInputError([&] { readCameras(p); }, {p, "cameras[0]", "fx"});
  writeFile(p, R"([{"fx": 1, "fy": 100, "cx": 10, "cy": 10, "width": 20, "height": 20,
                   "camera_to_world": [[1, 0, 0, 0], [0, 2, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]]}])");
  expectInputError([&] { readCameras(p); }, {p, "cameras[0].camera_to_world", "rotation"});
  writeFile(p, R"([{"fx": 1, "fy": 100, "cx": 10, "cy": 10, "width": 20, "height": 20, "fov": 3,
                   "look_at": {"eye": [0, 0, 5], "target": [0, 0, 0]}}])");
  expectInputError([&] { readCameras(p); }, {p, "cameras[0].fov"});
  writeFile(p, "[");
  expectInputError([&] { readCameras(p); }, {p, "invalid JSON"});
  expectInputError([&] { readCameras(dir.file("none.json")); }, {"none.json"});
  // Issue 25: a camera of 2e9 x 2e9 pixels ended in bad_alloc when rendered; 1e400 in
  // the file was an uncaught nlohmann out_of_range.
  writeFile(p, R"([{"fx": 100, "fy": 100, "cx": 10, "cy": 10, "width": 2000000000, "height": 2000000000,
                   "look_at": {"eye": [0, 0, 5], "target": [0, 0, 0]}}])");
  expectInputError([&] { readCameras(p); }, {p, "cameras[0]", "pixels"});
  writeFile(p, R"([{"fx": 1e400}])");
  expectInputError([&] { readCameras(p); }, {p, "invalid JSON"});
}

}  // namespace
}  // namespace softfit
