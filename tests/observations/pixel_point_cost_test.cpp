// The per-pixel point cost: the virtual cameras' pixel ids (each point against the
// rendered point of its pixel), gradient by central differences (on the vertices and
// through an embedding in the loss), thread-count independence, refusals, and the point
// of it: a noisy sphere's radius comes out unbiased where the closest-point cost
// inflates it.
#include "observations/pixel_point_cost.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "observations/camera_rig.h"
#include "observations/gaussian_noise.h"
#include "observations/pixel_point_loss.h"
#include "observations/point_surface_cost.h"
#include "observations/render_capture.h"
#include "observations/rendered_samples.h"
#include "observations_test_support.h"
#include "support/uv_sphere.h"

namespace softfit {
namespace {

using testing::expectInputError;

std::vector<Camera> ringOfCameras(const Vec3& lo, const Vec3& hi, int pixels) {
  CameraRigOptions rig;
  rig.width = rig.height = pixels;
  return camerasAroundBox(lo, hi, 6, rig);
}

PointCloud noisyView(const VecX& positions, const TriangleMatrix& triangles, const std::vector<Camera>& cameras,
                     double sigma, std::uint64_t seed) {
  PointCloud cloud = renderCloud(positions, triangles, cameras);
  GaussianNoise noise(seed);
  addGaussianNoise(cloud, sigma, noise);
  return cloud;
}

TEST(PixelPointCost, RenderedCloudsCarryEachPointsPixel) {
  const testing::Surface box = testing::makeBoxSurface(Vec3(0, 0, 0), Vec3(1, 0.6, 0.8), 3, 0.05, 7);
  const std::vector<Camera> cameras = ringOfCameras(Vec3(-0.1, -0.1, -0.1), Vec3(1.1, 0.7, 0.9), 20);
  const PointCloud cloud = renderCloud(box.positions, box.triangles, cameras);
  const std::vector<RenderedSample> samples = renderSamples(box.positions, box.triangles, cameras);
  ASSERT_EQ(cloud.pixels.size(), static_cast<size_t>(cloud.size()));
  ASSERT_EQ(samples.size(), static_cast<size_t>(cloud.size()));
  for (int i = 0; i < cloud.size(); ++i) {
    EXPECT_EQ(cloud.pixels[i], samples[i].pixel);
    EXPECT_LT((cloud.point(i) - samples[i].point).norm(), 1e-9) << "point " << i;
  }
  // Appending keeps the ids (shifted) only where both clouds have them.
  PointCloud twice = cloud;
  appendCloud(twice, cloud, 1000000);
  ASSERT_EQ(twice.pixels.size(), 2 * cloud.pixels.size());
  EXPECT_EQ(twice.pixels[cloud.size()], cloud.pixels[0] + 1000000);
  PointCloud unknown;
  unknown.points = cloud.points.topRows(2);
  appendCloud(twice, unknown);
  EXPECT_TRUE(twice.pixels.empty());
}

TEST(PixelPointCost, GradientMatchesCentralDifferences) {
  const testing::Surface box = testing::makeBoxSurface(Vec3(0, 0, 0), Vec3(1, 0.6, 0.8), 3, 0.05, 7);
  const std::vector<Camera> cameras = ringOfCameras(Vec3(-0.1, -0.1, -0.1), Vec3(1.1, 0.7, 0.9), 20);
  const PointCloud cloud = noisyView(box.positions, box.triangles, cameras, 0.02, 3);
  // Evaluated at a configuration other than the observed one, so every term pulls.
  VecX x = box.positions;
  for (int i = 0; i < x.size(); ++i) x[i] += 0.03 * std::sin(1.7 * i);
  PixelPointOptions options;
  options.sigma = 0.05;
  const auto cost = [&](const VecX& y) { return pixelPointCost(cloud, y, box.triangles, cameras, options, 0.7, nullptr); };
  VecX g = VecX::Zero(x.size());
  const double c = pixelPointCost(cloud, x, box.triangles, cameras, options, 0.7, &g);
  EXPECT_EQ(c, cost(x));
  ASSERT_GT(g.norm(), 0.0);
  // Random directions (a pixel changing hands at the silhouette would show as an error
  // of order 1), then each coordinate of one face's vertices.
  std::mt19937_64 rng(11);
  std::normal_distribution<double> normal;
  for (int trial = 0; trial < 4; ++trial) {
    VecX d(x.size());
    for (int i = 0; i < d.size(); ++i) d[i] = normal(rng);
    d.normalize();
    const double h = 1e-7;
    EXPECT_NEAR(g.dot(d), (cost(x + h * d) - cost(x - h * d)) / (2 * h), 1e-5 * g.norm()) << "trial " << trial;
  }
  for (int i = 0; i < 12; ++i) {
    const int k = 3 * box.triangles(0, i / 3) + i % 3;
    VecX xp = x, xm = x;
    xp[k] += 1e-7;
    xm[k] -= 1e-7;
    EXPECT_NEAR(g[k], (cost(xp) - cost(xm)) / 2e-7, 1e-5 * g.norm()) << "coordinate " << k;
  }
  // At the observed surface without noise the cost and its gradient vanish.
  const PointCloud clean = renderCloud(box.positions, box.triangles, cameras);
  VecX g0 = VecX::Zero(x.size());
  EXPECT_LT(pixelPointCost(clean, box.positions, box.triangles, cameras, options, 1.0, &g0), 1e-20);
  EXPECT_LT(g0.norm(), 1e-9);
}

TEST(PixelPointCost, SameBitsForAnyThreadCount) {
  const testing::Surface box = testing::makeBoxSurface(Vec3(0, 0, 0), Vec3(1, 0.6, 0.8), 3, 0.05, 7);
  const std::vector<Camera> cameras = ringOfCameras(Vec3(-0.1, -0.1, -0.1), Vec3(1.1, 0.7, 0.9), 60);
  const PointCloud cloud = noisyView(box.positions, box.triangles, cameras, 0.04, 5);
  VecX g1 = VecX::Zero(box.positions.size()), g2 = g1;
  PixelPointOptions options;
  options.sigma = 0.04;
  options.threads = 1;
  const double c1 = pixelPointCost(cloud, box.positions, box.triangles, cameras, options, 1.0, &g1);
  options.threads = 2;
  const double c2 = pixelPointCost(cloud, box.positions, box.triangles, cameras, options, 1.0, &g2);
  EXPECT_EQ(c1, c2);
  EXPECT_EQ(g1, g2);
}

TEST(PixelPointCost, NoisySphereRadiusIsUnbiased) {
  // Six cameras see a unit UV sphere with Gaussian noise sigma = 0.15 on every coordinate.
  // The best radius by the closest-point cost is inflated (E|s + n| = 1 + sigma^2 on a
  // sphere); each point against its own pixel's point is unbiased up to the sampling
  // error.
  const testing::UvSphere u = testing::uvSphere(16);
  VecX unit(3 * static_cast<int>(u.vertices.size()));
  for (size_t i = 0; i < u.vertices.size(); ++i) unit.segment<3>(3 * static_cast<int>(i)) = u.vertices[i];
  TriangleMatrix triangles(static_cast<int>(u.triangles.size()), 3);
  for (size_t i = 0; i < u.triangles.size(); ++i) triangles.row(static_cast<int>(i)) = u.triangles[i].transpose();
  const std::vector<Camera> cameras = ringOfCameras(Vec3(-1.2, -1.2, -1.2), Vec3(1.2, 1.2, 1.2), 48);
  const double sigma = 0.15;
  PixelPointOptions options;
  options.sigma = sigma;
  const auto bestScale = [&](const PointCloud& cloud, bool pixel) {
    double lo = 0.9, hi = 1.1;
    for (int k = 0; k < 30; ++k) {
      const double s = 0.5 * (lo + hi);
      VecX g = VecX::Zero(unit.size());
      if (pixel)
        pixelPointCost(cloud, s * unit, triangles, cameras, options, 1.0, &g);
      else
        pointToSurfaceCost(cloud, s * unit, triangles, RobustKernel{}, 1.0, &g);
      (g.dot(unit) > 0.0 ? hi : lo) = s;
    }
    return 0.5 * (lo + hi);
  };
  for (const std::uint64_t seed : {1, 2}) {
    const PointCloud cloud = noisyView(unit, triangles, cameras, sigma, seed);
    const double closest = bestScale(cloud, false), pixel = bestScale(cloud, true);
    std::printf("seed %d: best sphere scale: closest point %.5f, per pixel %.5f (sigma^2 = %.4f)\n",
                static_cast<int>(seed), closest, pixel, sigma * sigma);
    EXPECT_GT(closest - 1.0, 0.5 * sigma * sigma);
    EXPECT_LT(std::abs(pixel - 1.0), 0.25 * sigma * sigma);
  }
}

TEST(PixelPointCost, RefusesBadOptionsAndPointsWithoutPixels) {
  const testing::Surface box = testing::makeBoxSurface(Vec3(0, 0, 0), Vec3(1, 1, 1), 1, 0.0, 1);
  const std::vector<Camera> cameras = ringOfCameras(Vec3(0, 0, 0), Vec3(1, 1, 1), 8);
  PointCloud cloud;
  cloud.points = PointMatrix::Constant(1, 3, 0.5);
  PixelPointOptions options;
  const auto run = [&](const std::vector<Camera>& c) {
    pixelPointCost(cloud, box.positions, box.triangles, c, options, 1.0, nullptr);
  };
  expectInputError([&] { run(cameras); }, {"sigma must be > 0"});
  options.sigma = 0.1;
  options.cutoff = 0.5;
  expectInputError([&] { run(cameras); }, {"cutoff"});
  options.cutoff = 4.0;
  expectInputError([&] { run({}); }, {"no cameras"});
  expectInputError([&] { run(cameras); }, {"no pixel ids"});
  cloud.pixels = {6 * 8 * 8};
  expectInputError([&] { run(cameras); }, {"pixel id 384", "outside"});
  // A point whose pixel the surface does not cover costs the truncation value.
  cloud.pixels = {0};
  EXPECT_DOUBLE_EQ(pixelPointCost(cloud, box.positions, box.triangles, cameras, options, 2.0, nullptr),
                   2.0 * 0.5 * 16 * 0.01);
}

TEST(PixelPointLoss, ChainsThroughTheEmbeddingAndNeedsPixelsSigmaAndCameras) {
  const testing::Surface box = testing::makeBoxSurface(Vec3(0, 0, 0), Vec3(1, 0.6, 0.8), 2, 0.05, 9);
  const std::vector<Camera> cameras = ringOfCameras(Vec3(-0.1, -0.1, -0.1), Vec3(1.1, 0.7, 0.9), 16);
  // An embedding that is not the identity: vertex v = 0.5 (node v + node v') with node
  // v' a copy of v shifted by 0.1 in x.
  const int v = box.mesh.vertexCount();
  EmbeddedSurface surface;
  surface.triangles = box.triangles;
  surface.weights.resize(v, 2 * v);
  for (int i = 0; i < v; ++i) {
    surface.weights.insert(i, i) = 0.5;
    surface.weights.insert(i, v + i) = 0.5;
  }
  VecX x(6 * v);
  x << box.positions, box.positions;
  for (int i = 0; i < v; ++i) x[3 * (v + i)] += 0.1;
  Capture capture;
  capture.dt = 0.01;
  capture.frames.push_back({0, 1.0, noisyView(surface.flatPositions(x), box.triangles, cameras, 0.03, 4)});
  PointCloudLossOptions options;
  expectInputError([&] { PixelPointLoss(capture, surface, cameras, options); }, {"noise sigma"});
  options.noiseSigma = 0.03;
  expectInputError([&] { PixelPointLoss(capture, surface, {}, options); }, {"cameras"});
  Capture withoutPixels = capture;
  withoutPixels.frames[0].cloud.pixels.clear();
  expectInputError([&] { PixelPointLoss(withoutPixels, surface, cameras, options); }, {"frame 0", "no pixel ids"});
  PixelPointLoss loss(capture, surface, cameras, options);
  EXPECT_TRUE(loss.valueJumps());
  VecX y = x;
  for (int i = 0; i < y.size(); ++i) y[i] += 0.02 * std::cos(0.9 * i);
  const auto cost = [&](const VecX& z) {
    VecX gx = VecX::Zero(z.size()), gv = gx;
    return loss.evaluate(0, State{z, VecX::Zero(z.size()), 0.0}, gx, gv);
  };
  VecX gx = VecX::Zero(y.size()), gv = gx;
  loss.evaluate(0, State{y, VecX::Zero(y.size()), 0.0}, gx, gv);
  std::mt19937_64 rng(2);
  std::normal_distribution<double> normal;
  VecX d(y.size());
  for (int i = 0; i < d.size(); ++i) d[i] = normal(rng);
  d.normalize();
  EXPECT_NEAR(gx.dot(d), (cost(y + 1e-7 * d) - cost(y - 1e-7 * d)) / 2e-7, 1e-5 * gx.norm());
}

}  // namespace
}  // namespace softfit
