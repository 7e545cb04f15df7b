// The depth sensor model: each Kinect v1 effect measured on synthetic images against its
// formula (axial noise, disparity quantization, range, grazing angle, dropouts, flying
// pixels, lateral edge noise), determinism, and the ideal model's identity.
#include "observations/depth_sensor_model.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <set>

#include "observations/depth_renderer.h"
#include "observations_test_support.h"

namespace softfit {
namespace {

using testing::expectInputError;

// Camera at the origin looking along +z (identity pose), square pixels.
Camera straightCamera(int size, double fx) {
  Camera c;
  c.intrinsics.fx = c.intrinsics.fy = fx;
  c.intrinsics.cx = c.intrinsics.cy = 0.5 * (size - 1);
  c.intrinsics.width = c.intrinsics.height = size;
  return c;
}

DepthMap constantMap(int size, double z) {
  DepthMap m(size, size);
  for (double& d : m.depth) d = z;
  return m;
}

// Only the effects a test switches on.
DepthSensorModel noEffects() {
  DepthSensorModel m = DepthSensorModel::kinectV1();
  m.axialSigmaConstant = m.axialSigmaQuadratic = 0.0;
  m.lateralSigmaPixels = m.lateralAngleGain = 0.0;
  m.disparityStepPixels = 0.0;
  m.minRangeMetres = m.maxRangeMetres = 0.0;
  m.maxIncidenceDegrees = 90.0;
  m.dropoutProbability = m.flyingPixelProbability = 0.0;
  return m;
}

struct Stats {
  double mean = 0.0, sigma = 0.0;
  int count = 0;
};

Stats statsOf(const DepthMap& m) {
  Stats s;
  for (const double d : m.depth)
    if (d > 0.0) {
      s.mean += d;
      ++s.count;
    }
  s.mean /= s.count;
  for (const double d : m.depth)
    if (d > 0.0) s.sigma += (d - s.mean) * (d - s.mean);
  s.sigma = std::sqrt(s.sigma / (s.count - 1));
  return s;
}

TEST(DepthSensorModel, AxialNoiseOfAFlatWallMatchesNguyen) {
  const Camera camera = straightCamera(200, 180.0);
  DepthSensorModel m = DepthSensorModel::kinectV1();
  m.disparityStepPixels = 0.0;  // the Gaussian part alone
  m.dropoutProbability = 0.0;
  for (const double z : {1.0, 2.0}) {
    GaussianNoise rng(11);
    const Stats s = statsOf(applyDepthSensor(m, camera, headOnView(constantMap(200, z)), rng));
    const double expected = 0.0012 + 0.0019 * (z - 0.4) * (z - 0.4);  // Nguyen et al. 2012
    EXPECT_EQ(m.axialSigma(z), expected);
    EXPECT_EQ(s.count, 200 * 200);  // a head-on wall in range has no edges and no holes
    std::printf("axial noise at z = %g m: measured sigma %.6g m, Nguyen %.6g m (ratio %.4f)\n", z, s.sigma, expected,
                s.sigma / expected);
    EXPECT_NEAR(s.sigma / expected, 1.0, 0.02) << "z = " << z << ": measured " << s.sigma;
    EXPECT_NEAR(s.mean, z, 4.0 * expected / 200.0);
  }
  // With quantization the total keeps Nguyen's sigma (the Gaussian part gives way).
  DepthSensorModel q = DepthSensorModel::kinectV1();
  q.dropoutProbability = 0.0;
  GaussianNoise rng(12);
  const Stats s = statsOf(applyDepthSensor(q, camera, headOnView(constantMap(200, 2.0)), rng));
  std::printf("axial noise + quantization at z = 2 m: measured sigma %.6g m, Nguyen %.6g m (ratio %.4f)\n", s.sigma,
              q.axialSigma(2.0), s.sigma / q.axialSigma(2.0));
  EXPECT_NEAR(s.sigma / q.axialSigma(2.0), 1.0, 0.05) << s.sigma;
}

TEST(DepthSensorModel, DisparityQuantizationStepsFollowKhoshelham) {
  DepthSensorModel m = noEffects();
  m.disparityStepPixels = 0.125;
  const double fbs = 580.0 * 0.075 / 0.125;  // 348: z = fbs / k for integer k
  EXPECT_DOUBLE_EQ(m.quantize(1.0), 1.0);       // k = 348
  EXPECT_DOUBLE_EQ(m.quantize(1.0015), fbs / 347.0);
  EXPECT_NEAR(m.quantizationStep(1.0), 0.002874, 1e-6);
  EXPECT_NEAR(m.quantizationStep(2.0), 0.011494, 1e-6);
  // A ramp of depths through the sensor: every output is fbs / k, within half a step of
  // the input, and the levels near 2 m are one step apart.
  const int n = 100;
  DepthMap ramp(n, n);
  for (int i = 0; i < n * n; ++i) ramp.depth[i] = 0.5 + 3.4 * i / (n * n - 1.0);
  GaussianNoise rng(1);
  const DepthMap out = applyDepthSensor(m, straightCamera(n, 100.0), headOnView(ramp), rng);
  std::set<double> levels;
  for (int i = 0; i < n * n; ++i) {
    const double k = fbs / out.depth[i];
    EXPECT_NEAR(k, std::round(k), 1e-9);
    EXPECT_LE(std::abs(out.depth[i] - ramp.depth[i]), 0.5 * m.quantizationStep(out.depth[i]) * 1.02);
    if (out.depth[i] > 1.95 && out.depth[i] < 2.05) levels.insert(out.depth[i]);
  }
  ASSERT_GE(levels.size(), 8u);
  for (auto a = levels.begin(), b = std::next(a); b != levels.end(); ++a, ++b)
    EXPECT_NEAR((*b - *a) / m.quantizationStep(0.5 * (*a + *b)), 1.0, 0.01);
}

TEST(DepthSensorModel, OutOfRangeAndGrazingPixelsAreInvalid) {
  DepthSensorModel m = DepthSensorModel::kinectV1();
  m.dropoutProbability = 0.0;
  const Camera camera = straightCamera(40, 400.0);  // +-2.9 degrees: incidence ~ the plane's tilt
  GaussianNoise rng(3);
  EXPECT_EQ(applyDepthSensor(m, camera, headOnView(constantMap(40, 0.3)), rng).validCount(), 0);
  EXPECT_EQ(applyDepthSensor(m, camera, headOnView(constantMap(40, 4.5)), rng).validCount(), 0);
  EXPECT_EQ(applyDepthSensor(m, camera, headOnView(constantMap(40, 3.5)), rng).validCount(), 40 * 40);
  // A plane through (0, 0, 2) tilted by `degrees` about the camera's y axis, rendered.
  const auto tilted = [&](double degrees) {
    const double a = degrees * M_PI / 180.0;
    const Vec3 t(std::cos(a), 0, -std::sin(a)), s(0, 1, 0), c(0, 0, 2);
    VecX x(12);
    x << c - t - s, c + t - s, c + t + s, c - t + s;
    TriangleMatrix tri(2, 3);
    tri << 0, 1, 2, 0, 2, 3;
    return renderSurfaceView(camera, TriangleBvh(x, tri), x, tri);
  };
  const SurfaceView steep = tilted(80.0), moderate = tilted(70.0);
  EXPECT_EQ(steep.depth.validCount(), 40 * 40);
  EXPECT_NEAR(steep.cosIncidence[20 * 40 + 20], std::cos(80.0 * M_PI / 180.0), 0.01);
  EXPECT_EQ(applyDepthSensor(m, camera, steep, rng).validCount(), 0);
  EXPECT_EQ(applyDepthSensor(m, camera, moderate, rng).validCount(), 40 * 40);
}

TEST(DepthSensorModel, DropoutFractionMatchesTheProbability) {
  DepthSensorModel m = noEffects();
  for (const double p : {0.01, 0.2}) {
    m.dropoutProbability = p;
    GaussianNoise rng(4);
    const int valid = applyDepthSensor(m, straightCamera(200, 180.0), headOnView(constantMap(200, 1.0)), rng)
                          .validCount();
    const double fraction = 1.0 - valid / 40000.0;
    std::printf("dropout p = %g: measured fraction %.5f\n", p, fraction);
    EXPECT_NEAR(fraction, p, 4.0 * std::sqrt(p * (1 - p) / 40000.0)) << p;
  }
}

// Left half at 1 m, right half at 2 m: one vertical depth edge between columns 24 and 25.
DepthMap stepEdge(int n) {
  DepthMap m(n, n);
  for (int v = 0; v < n; ++v)
    for (int u = 0; u < n; ++u) m.at(u, v) = u < n / 2 ? 1.0 : 2.0;
  return m;
}

TEST(DepthSensorModel, FlyingPixelsAppearOnlyAtDiscontinuities) {
  const int n = 50;
  const DepthMap ideal = stepEdge(n);
  DepthSensorModel m = noEffects();
  for (const double p : {1.0, 0.5}) {
    m.flyingPixelProbability = p;
    GaussianNoise rng(5);
    const DepthMap out = applyDepthSensor(m, straightCamera(n, 50.0), headOnView(ideal), rng);
    int flying = 0;
    for (int v = 0; v < n; ++v)
      for (int u = 0; u < n; ++u) {
        if (out.at(u, v) == ideal.at(u, v)) continue;
        ++flying;
        EXPECT_EQ(u, n / 2 - 1) << "a flying pixel away from the edge";  // the foreground side
        EXPECT_GT(out.at(u, v), 1.0);
        EXPECT_LT(out.at(u, v), 2.0);
      }
    if (p == 1.0) {
      EXPECT_EQ(flying, n);
    }
    if (p == 0.5) {
      EXPECT_NEAR(flying, 0.5 * n, 3.0 * std::sqrt(0.25 * n));
    }
  }
}

TEST(DepthSensorModel, LateralNoiseMovesOnlyEdgesBySigmaL) {
  const int n = 400;
  const DepthMap ideal = stepEdge(n);
  DepthSensorModel m = noEffects();
  m.lateralSigmaPixels = 0.8;
  m.lateralAngleGain = 0.035;
  EXPECT_DOUBLE_EQ(m.lateralSigma(0.0, 585.0), 0.8);
  EXPECT_NEAR(m.lateralSigma(M_PI / 4, 585.0), 0.8 + 0.035, 1e-12);  // theta / (pi/2 - theta) = 1
  EXPECT_NEAR(m.lateralSigma(0.0, 292.5), 0.4, 1e-12);               // half the focal: half the pixels
  GaussianNoise rng(6);
  const DepthMap out = applyDepthSensor(m, straightCamera(n, 585.0), headOnView(ideal), rng);
  int changed = 0;
  for (int v = 0; v < n; ++v)
    for (int u = 0; u < n; ++u)
      if (out.at(u, v) != ideal.at(u, v)) {
        ++changed;
        EXPECT_TRUE(u == n / 2 - 1 || u == n / 2) << u;  // the two columns at the edge
      }
  // An edge pixel takes its neighbour across the edge when round(0.8 g) points there:
  // P(0.8 g > 0.5) = P(g > 0.625) = 0.266.
  const double expected = 0.5 * std::erfc(0.625 / std::sqrt(2.0));
  std::printf("lateral noise: %.4f of the edge pixels moved, expected %.4f\n", changed / (2.0 * n), expected);
  EXPECT_NEAR(changed / (2.0 * n), expected, 3.0 * std::sqrt(expected * (1 - expected) / (2.0 * n)));
  // A flat wall has no edge: unchanged.
  GaussianNoise rng2(6);
  const DepthMap wall = constantMap(50, 1.5);
  EXPECT_EQ(applyDepthSensor(m, straightCamera(50, 50.0), headOnView(wall), rng2).depth, wall.depth);
}

SurfaceView boxView(const Camera& camera) {
  const auto s = testing::makeBoxSurface(Vec3(-0.3, -0.2, 1.2), Vec3(0.3, 0.25, 1.8), 2, 0.02, 9);
  return renderSurfaceView(camera, TriangleBvh(s.positions, s.triangles), s.positions, s.triangles);
}

TEST(DepthSensorModel, SameSeedSameImageOtherSeedOtherImage) {
  const Camera camera = straightCamera(48, 60.0);
  const SurfaceView view = boxView(camera);
  ASSERT_GT(view.depth.validCount(), 300);
  const DepthSensorModel m = DepthSensorModel::kinectV1();
  GaussianNoise a(7), b(7), c(8);
  const DepthMap first = applyDepthSensor(m, camera, view, a);
  EXPECT_EQ(first.depth, applyDepthSensor(m, camera, view, b).depth);  // bit-identical
  EXPECT_NE(first.depth, applyDepthSensor(m, camera, view, c).depth);
  EXPECT_NE(first.depth, applyDepthSensor(m, camera, view, a).depth);  // the stream moves on
}

TEST(DepthSensorModel, IdealLeavesTheRenderedDepthUnchanged) {
  const Camera camera = straightCamera(48, 60.0);
  const SurfaceView view = boxView(camera);
  const auto s = testing::makeBoxSurface(Vec3(-0.3, -0.2, 1.2), Vec3(0.3, 0.25, 1.8), 2, 0.02, 9);
  EXPECT_EQ(view.depth.depth, renderDepth(camera, s.positions, s.triangles).depth);  // same rays as the renderer
  GaussianNoise rng(7), fresh(7);
  const DepthSensorModel ideal = DepthSensorModel::make(DepthSensorKind::Ideal);
  EXPECT_TRUE(ideal.isIdeal());
  EXPECT_EQ(applyDepthSensor(ideal, camera, view, rng).depth, view.depth.depth);
  EXPECT_EQ(rng.next(), fresh.next());  // nothing drawn
  EXPECT_FALSE(DepthSensorModel::make(DepthSensorKind::KinectV1).isIdeal());
}

TEST(DepthSensorModel, InvalidParametersAreInputErrors) {
  const Camera camera = straightCamera(8, 10.0);
  GaussianNoise rng(1);
  DepthSensorModel m = DepthSensorModel::kinectV1();
  m.dropoutProbability = 1.5;
  expectInputError([&] { applyDepthSensor(m, camera, headOnView(constantMap(8, 1.0)), rng); }, {"probabilit"});
  m = DepthSensorModel::kinectV1();
  m.axialSigmaConstant = -1;
  expectInputError([&] { validateDepthSensorModel(m, "sensor x"); }, {"sensor x", "axial"});
  m = DepthSensorModel::kinectV1();
  m.maxRangeMetres = 0.2;
  expectInputError([&] { validateDepthSensorModel(m); }, {"range"});
  expectInputError([&] { applyDepthSensor(DepthSensorModel::kinectV1(), camera, headOnView(constantMap(9, 1.0)), rng); },
                   {"size"});
}

}  // namespace
}  // namespace softfit
