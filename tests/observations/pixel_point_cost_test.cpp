// The per-pixel point cost: the virtual cameras' pixel ids (each point against the
// rendered point of its pixel), a noise-free view costs nothing, and the refusals. Its
// gradient, thread-count independence, loss and unbiasedness:
// rendered_view_cost_test.cpp.
#include "observations/pixel_point_cost.h"

#include <gtest/gtest.h>

#include "observations/pixel_point_loss.h"
#include "observations/render_capture.h"
#include "observations/rendered_samples.h"
#include "observations_test_support.h"
#include "rendered_view_test_support.h"

namespace softfit {
namespace {

using testing::expectInputError;
using testing::noisyView;
using testing::ringOfCameras;

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

TEST(PixelPointCost, VanishesAtTheObservedSurfaceWithoutNoise) {
  const testing::Surface box = testing::makeBoxSurface(Vec3(0, 0, 0), Vec3(1, 0.6, 0.8), 3, 0.05, 7);
  const std::vector<Camera> cameras = ringOfCameras(Vec3(-0.1, -0.1, -0.1), Vec3(1.1, 0.7, 0.9), 20);
  const PointCloud clean = renderCloud(box.positions, box.triangles, cameras);
  PixelPointOptions options;
  options.sigma = 0.05;
  VecX g = VecX::Zero(box.positions.size());
  EXPECT_LT(pixelPointCost(clean, box.positions, box.triangles, cameras, options, 1.0, &g), 1e-20);
  EXPECT_LT(g.norm(), 1e-9);
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

TEST(PixelPointLoss, NeedsEveryFramesPixelIds) {
  testing::EmbeddedBoxCapture scene = testing::embeddedBoxCapture();
  const EmbeddedSurface& surface = scene.surface;
  const std::vector<Camera>& cameras = scene.cameras;
  Capture& capture = scene.capture;
  PointCloudLossOptions options;
  options.noiseSigma = 0.03;
  EXPECT_NO_THROW(PixelPointLoss(capture, surface, cameras, options));
  capture.frames[0].cloud.pixels.clear();
  expectInputError([&] { PixelPointLoss(capture, surface, cameras, options); }, {"frame 0", "no pixel ids"});
}

}  // namespace
}  // namespace softfit
