// The noise-aware rendered-mixture cost's refusals. Its gradient, thread-count
// independence, loss and unbiasedness: rendered_view_cost_test.cpp.
#include "observations/rendered_mixture_cost.h"

#include <gtest/gtest.h>

#include "observations_test_support.h"
#include "rendered_view_test_support.h"

namespace softfit {
namespace {

using testing::expectInputError;
using testing::ringOfCameras;

TEST(RenderedMixtureCost, RefusesBadOptionsAndBlindCameras) {
  const testing::Surface box = testing::makeBoxSurface(Vec3(0, 0, 0), Vec3(1, 1, 1), 1, 0.0, 1);
  const std::vector<Camera> cameras = ringOfCameras(Vec3(0, 0, 0), Vec3(1, 1, 1), 8);
  PointCloud cloud;
  cloud.points = PointMatrix::Constant(1, 3, 0.5);
  RenderedMixtureOptions options;
  expectInputError([&] { renderedMixtureCost(cloud, box.positions, box.triangles, cameras, options, 1.0, nullptr); },
                   {"sigma must be > 0"});
  options.sigma = 0.1;
  options.cutoff = 0.5;
  expectInputError([&] { renderedMixtureCost(cloud, box.positions, box.triangles, cameras, options, 1.0, nullptr); },
                   {"cutoff"});
  options.cutoff = 4.0;
  expectInputError([&] { renderedMixtureCost(cloud, box.positions, box.triangles, {}, options, 1.0, nullptr); },
                   {"no cameras"});
  const VecX far = box.positions + VecX::Constant(box.positions.size(), 100.0);
  expectInputError([&] { renderedMixtureCost(cloud, far, box.triangles, cameras, options, 1.0, nullptr); },
                   {"see nothing"});
}

}  // namespace
}  // namespace softfit
