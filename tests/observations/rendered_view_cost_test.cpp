// The costs that render the surface through the capture's cameras, each checked the same
// way (parametrized over the rendered-mixture and the per-pixel cost): gradient by
// central differences (on the vertices, and through an embedding in the loss),
// thread-count independence, the loss' refusals of a missing sigma or cameras, and the
// point of both: a noisy sphere's radius comes out unbiased where the closest-point
// cost inflates it.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <memory>
#include <random>
#include <string>

#include "observations/pixel_point_cost.h"
#include "observations/pixel_point_loss.h"
#include "observations/point_surface_cost.h"
#include "observations/rendered_mixture_cost.h"
#include "observations/rendered_mixture_loss.h"
#include "observations_test_support.h"
#include "rendered_view_test_support.h"

namespace softfit {
namespace {

using testing::expectInputError;
using testing::noisyView;
using testing::ringOfCameras;

struct RenderedViewCost {
  std::string name;
  // weight * J of `cloud` on `vertices` (gradient added when given), sigma and threads set.
  std::function<double(const PointCloud&, const VecX&, const TriangleMatrix&, const std::vector<Camera>&, double,
                       int, double, VecX*)>
      cost;
  std::function<std::unique_ptr<CaptureLoss>(const Capture&, const EmbeddedSurface&, const std::vector<Camera>&,
                                             const PointCloudLossOptions&)>
      loss;
};

// One case: the frame cost `cost` (options RenderedCostOptions) and its capture loss Loss.
template <typename Loss, typename Cost>
RenderedViewCost renderedViewCost(const std::string& name, Cost cost) {
  return {name,
          [cost](const PointCloud& c, const VecX& v, const TriangleMatrix& t, const std::vector<Camera>& cams,
                 double sigma, int threads, double weight, VecX* g) {
            RenderedCostOptions o;
            o.sigma = sigma;
            o.threads = threads;
            return cost(c, v, t, cams, o, weight, g);
          },
          [](const Capture& c, const EmbeddedSurface& s, const std::vector<Camera>& cams,
             const PointCloudLossOptions& o) { return std::make_unique<Loss>(c, s, cams, o); }};
}

class RenderedViewCostTest : public ::testing::TestWithParam<RenderedViewCost> {};

// A unit random direction of dimension n.
VecX randomDirection(Eigen::Index n, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal;
  VecX d(n);
  for (Eigen::Index i = 0; i < n; ++i) d[i] = normal(rng);
  return d.normalized();
}

TEST_P(RenderedViewCostTest, GradientMatchesCentralDifferences) {
  const testing::Surface box = testing::makeBoxSurface(Vec3(0, 0, 0), Vec3(1, 0.6, 0.8), 3, 0.05, 7);
  const std::vector<Camera> cameras = ringOfCameras(Vec3(-0.1, -0.1, -0.1), Vec3(1.1, 0.7, 0.9), 20);
  const PointCloud cloud = noisyView(box.positions, box.triangles, cameras, 0.03, 3);
  // Evaluated at a configuration other than the observed one, so every term pulls.
  VecX x = box.positions;
  for (int i = 0; i < x.size(); ++i) x[i] += 0.03 * std::sin(1.7 * i);
  const auto cost = [&](const VecX& y, VecX* g) { return GetParam().cost(cloud, y, box.triangles, cameras, 0.05, 0, 0.7, g); };
  VecX g = VecX::Zero(x.size());
  EXPECT_EQ(cost(x, &g), cost(x, nullptr));
  ASSERT_GT(g.norm(), 0.0);
  // Directional derivatives along random directions (at the silhouette, rendered points
  // appear, vanish or change pixels, so a single coordinate's difference could straddle
  // a jump; a step of 1e-7 rarely does and a jump would show as an error of order 1),
  // then each coordinate of one face's vertices, where no ray grazes.
  for (int trial = 0; trial < 4; ++trial) {
    const VecX d = randomDirection(x.size(), 11 + trial);
    const double h = 1e-7;
    EXPECT_NEAR(g.dot(d), (cost(x + h * d, nullptr) - cost(x - h * d, nullptr)) / (2 * h), 1e-5 * g.norm())
        << "trial " << trial;
  }
  for (int i = 0; i < 12; ++i) {
    const int k = 3 * box.triangles(0, i / 3) + i % 3;
    VecX xp = x, xm = x;
    xp[k] += 1e-7;
    xm[k] -= 1e-7;
    EXPECT_NEAR(g[k], (cost(xp, nullptr) - cost(xm, nullptr)) / 2e-7, 1e-5 * g.norm()) << "coordinate " << k;
  }
}

TEST_P(RenderedViewCostTest, SameBitsForAnyThreadCount) {
  const testing::Surface box = testing::makeBoxSurface(Vec3(0, 0, 0), Vec3(1, 0.6, 0.8), 3, 0.05, 7);
  // Enough points for several of the mixture's batches of chunks (rendered_mixture_cost.cpp).
  const std::vector<Camera> cameras = ringOfCameras(Vec3(-0.1, -0.1, -0.1), Vec3(1.1, 0.7, 0.9), 80);
  const PointCloud cloud = noisyView(box.positions, box.triangles, cameras, 0.04, 5);
  ASSERT_GT(cloud.size(), 3 * 2048);
  VecX g1 = VecX::Zero(box.positions.size()), g2 = g1;
  const double c1 = GetParam().cost(cloud, box.positions, box.triangles, cameras, 0.04, 1, 1.0, &g1);
  const double c2 = GetParam().cost(cloud, box.positions, box.triangles, cameras, 0.04, 2, 1.0, &g2);
  EXPECT_EQ(c1, c2);
  EXPECT_EQ(g1, g2);
}

TEST_P(RenderedViewCostTest, NoisySphereRadiusIsUnbiased) {
  // Six cameras see a unit UV sphere with Gaussian noise sigma = 0.15 on every coordinate.
  // The best radius by the closest-point cost is inflated (E|s + n| = 1 + sigma^2 on a
  // sphere); both costs are the points' likelihood, so their best radius is the true one
  // up to the sampling error (~0.002 here).
  const testing::UnitSphere sphere = testing::unitSphere(16);
  const std::vector<Camera> cameras = ringOfCameras(Vec3(-1.2, -1.2, -1.2), Vec3(1.2, 1.2, 1.2), 48);
  const double sigma = 0.15;
  for (const std::uint64_t seed : {1, 2}) {
    const PointCloud cloud = noisyView(sphere.positions, sphere.triangles, cameras, sigma, seed);
    const double closest = testing::bestSphereScale(sphere.positions, [&](const VecX& y, VecX& g) {
      pointToSurfaceCost(cloud, y, sphere.triangles, RobustKernel{}, 1.0, &g);
    });
    const double ours = testing::bestSphereScale(sphere.positions, [&](const VecX& y, VecX& g) {
      GetParam().cost(cloud, y, sphere.triangles, cameras, sigma, 0, 1.0, &g);
    });
    std::printf("seed %d: best sphere scale: closest point %.5f, %s %.5f (sigma^2 = %.4f)\n", static_cast<int>(seed),
                closest, GetParam().name.c_str(), ours, sigma * sigma);
    EXPECT_GT(closest - 1.0, 0.5 * sigma * sigma);
    EXPECT_LT(std::abs(ours - 1.0), 0.25 * sigma * sigma);
  }
}

TEST_P(RenderedViewCostTest, LossChainsThroughTheEmbeddingAndNeedsSigmaAndCameras) {
  const testing::EmbeddedBoxCapture scene = testing::embeddedBoxCapture();
  const EmbeddedSurface& surface = scene.surface;
  const std::vector<Camera>& cameras = scene.cameras;
  const Capture& capture = scene.capture;
  const VecX& x = scene.x;
  PointCloudLossOptions options;
  expectInputError([&] { GetParam().loss(capture, surface, cameras, options); }, {"noise sigma"});
  options.noiseSigma = 0.03;
  expectInputError([&] { GetParam().loss(capture, surface, {}, options); }, {"cameras"});
  options.huberDelta = 0.1;
  expectInputError([&] { GetParam().loss(capture, surface, cameras, options); }, {"Huber"});
  options.huberDelta = 0.0;
  const std::unique_ptr<CaptureLoss> loss = GetParam().loss(capture, surface, cameras, options);
  EXPECT_TRUE(loss->valueJumps());
  VecX y = x;
  for (int i = 0; i < y.size(); ++i) y[i] += 0.02 * std::cos(0.9 * i);
  const auto cost = [&](const VecX& z, VecX& gx) {
    VecX gv = VecX::Zero(z.size());
    gx = VecX::Zero(z.size());
    return loss->evaluate(0, State{z, VecX::Zero(z.size()), 0.0}, gx, gv);
  };
  VecX gx, unused;
  cost(y, gx);
  const VecX d = randomDirection(y.size(), 2);
  EXPECT_NEAR(gx.dot(d), (cost(y + 1e-7 * d, unused) - cost(y - 1e-7 * d, unused)) / 2e-7, 1e-5 * gx.norm());
}

INSTANTIATE_TEST_SUITE_P(Costs, RenderedViewCostTest, ::testing::Values(renderedViewCost<RenderedMixtureLoss>("mixture", renderedMixtureCost),
                                           renderedViewCost<PixelPointLoss>("pixel", pixelPointCost)),
                         [](const ::testing::TestParamInfo<RenderedViewCost>& info) { return info.param.name; });

}  // namespace
}  // namespace softfit
