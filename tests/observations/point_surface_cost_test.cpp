// Point-to-surface cost: closest points (triangle, BVH vs brute force), gradients by
// finite differences (plain and Huber; envelope theorem), the Huber kernel itself, and
// the capture loss with frame/stride mapping.
#include "observations/point_surface_cost.h"

#include <gtest/gtest.h>

#include <cmath>

#include "observations/point_cloud_loss.h"
#include "observations_test_support.h"
#include "support/finite_difference.h"
#include "support/uv_sphere.h"

namespace softfit {
namespace {

using testing::expectInputError;
using testing::makeBoxSurface;

// Points scattered around the surface: random surface points pushed along a random
// direction by up to `spread` (inside and outside).
PointCloud cloudAround(const testing::Surface& s, int count, double spread, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(0, 1), w(-1, 1);
  std::uniform_int_distribution<int> tri(0, static_cast<int>(s.triangles.rows()) - 1);
  PointCloud c;
  c.points.resize(count, 3);
  for (int i = 0; i < count; ++i) {
    const int t = tri(rng);
    double a = u(rng), b = u(rng);
    if (a + b > 1) a = 1 - a, b = 1 - b;
    const Vec3 p = (1 - a - b) * s.positions.segment<3>(3 * s.triangles(t, 0)) +
                   a * s.positions.segment<3>(3 * s.triangles(t, 1)) + b * s.positions.segment<3>(3 * s.triangles(t, 2));
    c.points.row(i) = (p + spread * Vec3(w(rng), w(rng), w(rng))).transpose();
  }
  return c;
}

TEST(ClosestPoint, TriangleRegionsAndBarycentricsAreConsistent) {
  const Vec3 a(0, 0, 0), b(2, 0, 0), c(0, 1, 0);
  auto q = closestPointOnTriangle(Vec3(0.5, 0.25, 3), a, b, c);  // face
  EXPECT_NEAR((q.point - Vec3(0.5, 0.25, 0)).norm(), 0, 1e-15);
  EXPECT_NEAR(q.distanceSquared, 9, 1e-14);
  q = closestPointOnTriangle(Vec3(-1, -1, 0), a, b, c);  // vertex a
  EXPECT_EQ(q.barycentric, Vec3(1, 0, 0));
  q = closestPointOnTriangle(Vec3(1, -2, 1), a, b, c);  // edge ab
  EXPECT_NEAR((q.point - Vec3(1, 0, 0)).norm(), 0, 1e-15);
  EXPECT_NEAR(q.barycentric[0], 0.5, 1e-15);
  q = closestPointOnTriangle(Vec3(5, 5, 0), a, b, c);  // edge bc
  EXPECT_NEAR(q.barycentric.sum(), 1.0, 1e-15);
  EXPECT_EQ(q.barycentric[0], 0.0);
  // Degenerate (collinear) triangle: closest point on its segments.
  q = closestPointOnTriangle(Vec3(1, 1, 0), a, b, Vec3(1, 0, 0));
  EXPECT_NEAR((q.point - Vec3(1, 0, 0)).norm(), 0, 1e-15);
  EXPECT_NEAR(q.distanceSquared, 1.0, 1e-15);
  // Random points: q is the barycentric combination and no vertex / edge sample is closer.
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> u(-2, 2);
  for (int k = 0; k < 200; ++k) {
    const Vec3 p(u(rng), u(rng), u(rng)), x0(u(rng), u(rng), u(rng)), x1(u(rng), u(rng), u(rng)),
        x2(u(rng), u(rng), u(rng));
    const auto r = closestPointOnTriangle(p, x0, x1, x2);
    EXPECT_NEAR((r.point - (r.barycentric[0] * x0 + r.barycentric[1] * x1 + r.barycentric[2] * x2)).norm(), 0,
                1e-13);
    EXPECT_GE(r.barycentric.minCoeff(), 0.0);
    EXPECT_NEAR(r.barycentric.sum(), 1.0, 1e-14);
    for (int i = 0; i <= 20; ++i)
      for (int j = 0; i + j <= 20; ++j) {
        const Vec3 s = x0 + (i / 20.0) * (x1 - x0) + (j / 20.0) * (x2 - x0);
        EXPECT_LE(r.distanceSquared, (p - s).squaredNorm() + 1e-12);
      }
  }
}

TEST(TriangleBvh, ClosestPointMatchesBruteForce) {
  const auto s = makeBoxSurface(Vec3(0, 0, 0), Vec3(1, 0.5, 0.7), 4, 0.03, 5);
  const TriangleBvh bvh(s.positions, s.triangles);
  const PointCloud c = cloudAround(s, 500, 0.6, 6);
  for (int i = 0; i < c.size(); ++i) {
    double best = 1e300;
    int bestTri = -1;
    for (int t = 0; t < s.triangles.rows(); ++t) {
      const auto q = closestPointOnTriangle(c.point(i), s.positions.segment<3>(3 * s.triangles(t, 0)),
                                            s.positions.segment<3>(3 * s.triangles(t, 1)),
                                            s.positions.segment<3>(3 * s.triangles(t, 2)));
      if (q.distanceSquared < best) best = q.distanceSquared, bestTri = t;
    }
    const auto n = bvh.closestPoint(c.point(i));
    EXPECT_EQ(n.distanceSquared, best);
    EXPECT_EQ(n.triangle, bestTri);
  }
}

void expectGradientMatches(const PointCloud& cloud, const testing::Surface& s, const RobustKernel& kernel,
                           double weight) {
  VecX g = VecX::Zero(s.positions.size());
  const double value = pointToSurfaceCost(cloud, s.positions, s.triangles, kernel, weight, &g, 1);
  EXPECT_GT(value, 0.0);
  const auto f = [&](const VecX& x) { return pointToSurfaceCost(cloud, x, s.triangles, kernel, weight, nullptr, 1); };
  const VecX fd = testing::centralGradient(f, s.positions, 1e-7);
  const double err = (fd - g).cwiseAbs().maxCoeff();
  EXPECT_LT(err, 1e-6 * (1.0 + g.cwiseAbs().maxCoeff())) << "max |fd - g| = " << err << ", |g| = " << g.norm();
  // Nodes not on any matched triangle get nothing; interior nodes never.
  EXPECT_GT(g.norm(), 0.0);
}

TEST(PointSurfaceCost, GradientMatchesFiniteDifferences) {
  for (const unsigned seed : {11u, 12u, 13u}) {
    const auto s = makeBoxSurface(Vec3(-0.5, 0, -0.3), Vec3(0.5, 0.6, 0.3), 2, 0.05, seed);
    const PointCloud cloud = cloudAround(s, 60, 0.15, seed + 100);
    expectGradientMatches(cloud, s, RobustKernel{}, 0.7);
  }
}

TEST(PointSurfaceCost, HuberGradientMatchesFiniteDifferences) {
  const auto s = makeBoxSurface(Vec3(-0.5, 0, -0.3), Vec3(0.5, 0.6, 0.3), 2, 0.05, 21);
  const PointCloud cloud = cloudAround(s, 80, 0.3, 22);
  // Half of the points beyond delta, half within.
  const TriangleBvh bvh(s.positions, s.triangles);
  std::vector<double> d;
  for (const auto& m : matchPointsToSurface(cloud, bvh)) d.push_back(m.distance);
  std::nth_element(d.begin(), d.begin() + d.size() / 2, d.end());
  const double delta = d[d.size() / 2];
  expectGradientMatches(cloud, s, RobustKernel{delta}, 1.3);
  // Huber cost <= plain cost, equal when delta exceeds every distance.
  const double huber = pointToSurfaceCost(cloud, s.positions, s.triangles, RobustKernel{delta}, 1, nullptr);
  const double plain = pointToSurfaceCost(cloud, s.positions, s.triangles, RobustKernel{}, 1, nullptr);
  EXPECT_LT(huber, plain);
  EXPECT_EQ(pointToSurfaceCost(cloud, s.positions, s.triangles, RobustKernel{10.0}, 1, nullptr), plain);
}

TEST(PointSurfaceCost, NoiseCorrectionGradientMatchesFiniteDifferences) {
  for (const unsigned seed : {41u, 42u, 43u}) {
    const auto s = makeBoxSurface(Vec3(-0.5, 0, -0.3), Vec3(0.5, 0.6, 0.3), 2, 0.05, seed);
    const auto reference = makeBoxSurface(Vec3(-0.5, 0, -0.3), Vec3(0.5, 0.6, 0.3), 2, 0.0, seed);
    const PointCloud cloud = cloudAround(s, 60, 0.15, seed + 100);
    const PointSurfaceNoise noise = makePointSurfaceNoise(0.2, reference.positions, s.triangles);
    for (const RobustKernel kernel : {RobustKernel{}, RobustKernel{0.05}}) {
      VecX g = VecX::Zero(s.positions.size());
      const double value = pointToSurfaceCost(cloud, s.positions, s.triangles, kernel, 0.7, &g, 1, &noise);
      const auto f = [&](const VecX& x) {
        return pointToSurfaceCost(cloud, x, s.triangles, kernel, 0.7, nullptr, 1, &noise);
      };
      EXPECT_NEAR(value, f(s.positions), 1e-12 * (1.0 + std::abs(value)));  // with or without the gradient
      const VecX fd = testing::centralGradient(f, s.positions, 1e-7);
      const double err = (fd - g).cwiseAbs().maxCoeff();
      EXPECT_LT(err, 1e-6 * (1.0 + g.cwiseAbs().maxCoeff())) << "max |fd - g| = " << err;
      VecX plainGradient = VecX::Zero(s.positions.size());
      pointToSurfaceCost(cloud, s.positions, s.triangles, kernel, 0.7, &plainGradient, 1);
      EXPECT_GT((g - plainGradient).norm(), 1e-3 * g.norm());
    }
  }
  {
    // The value: 0.7 * sigma^2 / 2 * sum_i sum_j b_ij log(A_j / A_j^ref), vertex areas a third
    // of the areas of their triangles, for points around faces, edges and corners.
    const auto s = makeBoxSurface(Vec3(-0.5, 0, -0.3), Vec3(0.5, 0.6, 0.3), 2, 0.05, 44);
    const auto reference = makeBoxSurface(Vec3(-0.5, 0, -0.3), Vec3(0.5, 0.6, 0.3), 2, 0.0, 44);
    const PointSurfaceNoise noise = makePointSurfaceNoise(0.2, reference.positions, s.triangles);
    const auto areas = [&](const VecX& x) {
      VecX A = VecX::Zero(x.size() / 3);
      const VecX triangle = triangleLogAreas(x, s.triangles).array().exp();
      for (int t = 0; t < s.triangles.rows(); ++t)
        for (int j = 0; j < 3; ++j) A[s.triangles(t, j)] += triangle[t] / 3.0;
      return A;
    };
    const VecX A = areas(s.positions), Aref = areas(reference.positions);
    const PointCloud cloud = cloudAround(s, 200, 0.3, 45);
    const TriangleBvh bvh(s.positions, s.triangles);
    double expected = 0.0;
    int features[4] = {0, 0, 0, 0};
    for (const auto& m : matchPointsToSurface(cloud, bvh)) {
      ++features[(m.barycentric.array() != 0.0).count()];
      for (int j = 0; j < 3; ++j) {
        const int v = s.triangles(m.triangle, j);
        expected += 0.7 * 0.5 * 0.04 * m.barycentric[j] * std::log(A[v] / Aref[v]);
      }
    }
    EXPECT_GT(features[1], 0);  // some points beyond corners, edges and faces
    EXPECT_GT(features[2], 0);
    EXPECT_GT(features[3], 0);
    const double plain = pointToSurfaceCost(cloud, s.positions, s.triangles, RobustKernel{}, 0.7, nullptr);
    EXPECT_NEAR(pointToSurfaceCost(cloud, s.positions, s.triangles, RobustKernel{}, 0.7, nullptr, 1, &noise) - plain,
                expected, 1e-14);
  }
  // Zero sigma is the plain cost; bad inputs are refused.
  const auto s = makeBoxSurface(Vec3(0, 0, 0), Vec3(1, 1, 1), 1, 0.0, 1);
  const PointCloud cloud = cloudAround(s, 10, 0.1, 2);
  PointSurfaceNoise none;
  EXPECT_EQ(pointToSurfaceCost(cloud, s.positions, s.triangles, RobustKernel{}, 1, nullptr, 1, &none),
            pointToSurfaceCost(cloud, s.positions, s.triangles, RobustKernel{}, 1, nullptr));
  expectInputError([&] { makePointSurfaceNoise(-1.0, s.positions, s.triangles); }, {"sigma"});
  PointSurfaceNoise bad;
  bad.sigma = 0.1;  // not made for this surface
  expectInputError([&] { pointToSurfaceCost(cloud, s.positions, s.triangles, RobustKernel{}, 1, nullptr, 1, &bad); },
                   {"reference vertex areas"});
}

// A UV sphere of radius 1 (n latitude bands, 2n longitudes), outward triangles.
testing::Surface makeSphereSurface(int n) {
  testing::Surface s;
  const testing::UvSphere u = testing::uvSphere(n);
  const std::vector<Vec3>& v = u.vertices;
  const std::vector<Eigen::Vector3i>& t = u.triangles;
  s.positions.resize(3 * static_cast<int>(v.size()));
  for (size_t i = 0; i < v.size(); ++i) s.positions.segment<3>(3 * static_cast<int>(i)) = v[i];
  s.triangles.resize(static_cast<int>(t.size()), 3);
  for (size_t i = 0; i < t.size(); ++i) s.triangles.row(static_cast<int>(i)) = t[i].transpose();
  return s;
}

TEST(PointSurfaceCost, NoiseCorrectionRemovesTheInflationOfANoisySphere) {
  // Area-uniform samples of a unit sphere mesh with Gaussian noise sigma = 0.15: the plain
  // cost is lowest for a sphere scaled by about 1 + sigma^2 (E|s + n| = 1 + sigma^2), the
  // corrected one at the true scale (first order in sigma^2).
  const auto s = makeSphereSurface(16);
  const double sigma = 0.15;
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> u(0, 1);
  std::normal_distribution<double> normal(0, 1);  // values need not be portable here
  const VecX area = triangleLogAreas(s.positions, s.triangles).array().exp();
  std::discrete_distribution<int> pick(area.data(), area.data() + area.size());
  PointCloud cloud;
  cloud.points.resize(6000, 3);
  for (int i = 0; i < cloud.size(); ++i) {
    const int t = pick(rng);
    double a = u(rng), b = u(rng);
    if (a + b > 1) a = 1 - a, b = 1 - b;
    const Vec3 p = (1 - a - b) * s.positions.segment<3>(3 * s.triangles(t, 0)) +
                   a * s.positions.segment<3>(3 * s.triangles(t, 1)) + b * s.positions.segment<3>(3 * s.triangles(t, 2));
    cloud.points.row(i) = (p + sigma * Vec3(normal(rng), normal(rng), normal(rng))).transpose();
  }
  const PointSurfaceNoise noise = makePointSurfaceNoise(sigma, s.positions, s.triangles);
  // Best scale by golden-section search on [0.9, 1.1].
  const auto bestScale = [&](const PointSurfaceNoise* n) {
    const auto cost = [&](double k) {
      return pointToSurfaceCost(cloud, k * s.positions, s.triangles, RobustKernel{}, 1.0, nullptr, 0, n);
    };
    double lo = 0.9, hi = 1.1;
    const double r = 0.5 * (std::sqrt(5.0) - 1.0);
    for (int k = 0; k < 40; ++k) {
      const double a = hi - r * (hi - lo), b = lo + r * (hi - lo);
      (cost(a) < cost(b) ? hi : lo) = cost(a) < cost(b) ? b : a;
    }
    return 0.5 * (lo + hi);
  };
  const double plain = bestScale(nullptr);
  const double corrected = bestScale(&noise);
  std::printf("best sphere scale: plain %.5f, corrected %.5f (sigma^2 = %.4f)\n", plain, corrected, sigma * sigma);
  EXPECT_GT(plain - 1.0, 0.7 * sigma * sigma);
  EXPECT_LT(std::abs(corrected - 1.0), 0.25 * sigma * sigma);
}

TEST(RobustKernel, HuberValueAndDerivative) {
  const RobustKernel plain{}, huber{0.2};
  for (const double d : {0.0, 0.05, 0.1999, 0.2, 0.2001, 0.5, 3.0}) {
    EXPECT_DOUBLE_EQ(plain.value(d), 0.5 * d * d);
    EXPECT_EQ(plain.gradientScale(d), 1.0);
    EXPECT_DOUBLE_EQ(huber.value(d), d <= 0.2 ? 0.5 * d * d : 0.2 * (d - 0.1));
    if (d > 0) {
      const double h = 1e-7;
      const double fd = (huber.value(d + h) - huber.value(d - h)) / (2 * h);
      EXPECT_NEAR(huber.gradientScale(d) * d, fd, 1e-6) << d;  // rho'(d) = scale * d
    }
  }
  EXPECT_NEAR(huber.value(0.2 + 1e-12), huber.value(0.2), 1e-12);  // continuous at delta
  expectInputError([] { validateRobustKernel(RobustKernel{-1.0}); }, {"huber_delta"});
}

TEST(PointSurfaceCost, EnvelopeTheoremHoldsOnAFlatFace) {
  // One point above a flat square: moving nodes tangentially changes nothing to first order.
  VecX x(12);
  x << 0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0;
  TriangleMatrix tris(2, 3);
  tris << 0, 1, 2, 0, 2, 3;
  PointCloud c;
  c.points.resize(1, 3);
  c.points << 0.3, 0.6, 0.4;
  VecX g = VecX::Zero(12);
  const double v = pointToSurfaceCost(c, x, tris, RobustKernel{}, 1.0, &g);
  EXPECT_NEAR(v, 0.5 * 0.16, 1e-15);
  for (int i = 0; i < 4; ++i) {
    EXPECT_NEAR(g[3 * i], 0.0, 1e-15);
    EXPECT_NEAR(g[3 * i + 1], 0.0, 1e-15);
  }
  EXPECT_NEAR(g.sum(), -0.4, 1e-15);  // -(p - q) . n summed over the barycentric weights
}

TEST(PointCloudSurfaceLoss, NoiseCorrectionNeedsReferenceNodesAndMatchesTheFrameCost) {
  const auto s = makeBoxSurface(Vec3(-0.5, 0, -0.3), Vec3(0.5, 0.6, 0.3), 2, 0.02, 51);
  const auto reference = makeBoxSurface(Vec3(-0.5, 0, -0.3), Vec3(0.5, 0.6, 0.3), 2, 0.0, 51);
  Capture capture;
  capture.dt = 0.01;
  capture.source = "noisy-capture";
  capture.frames.push_back({0, 1.0, cloudAround(s, 300, 0.1, 52)});
  PointCloudLossOptions options;
  options.noiseSigma = 0.03;
  expectInputError([&] { PointCloudSurfaceLoss loss(capture, s.triangles, options); },
                   {"noisy-capture", "reference node positions"});
  options.noiseSigma = -0.1;
  expectInputError([&] { PointCloudSurfaceLoss loss(capture, s.triangles, options, reference.positions); },
                   {"noisy-capture", "noise sigma"});
  options.noiseSigma = 0.03;
  PointCloudSurfaceLoss loss(capture, s.triangles, options, reference.positions);
  State state{s.positions, VecX::Zero(s.positions.size()), 0.0};
  VecX gx = VecX::Zero(s.positions.size()), gv = gx;
  const double v = loss.evaluate(0, state, gx, gv);
  const PointSurfaceNoise noise = makePointSurfaceNoise(0.03, reference.positions, s.triangles);
  VecX expected = VecX::Zero(s.positions.size());
  EXPECT_EQ(v, pointToSurfaceCost(capture.frames[0].cloud, s.positions, s.triangles, RobustKernel{}, 1.0, &expected, 1,
                                  &noise));
  EXPECT_EQ(gx, expected);
  EXPECT_NE(v, pointToSurfaceCost(capture.frames[0].cloud, s.positions, s.triangles, RobustKernel{}, 1.0, nullptr));
}

TEST(PointCloudSurfaceLoss, ResidualsAreSignedDistancesWhoseHalfSquareIsTheCost) {
  const auto s = makeBoxSurface(Vec3(-0.5, 0, -0.3), Vec3(0.5, 0.6, 0.3), 3, 0.02, 31);
  Capture capture;
  capture.dt = 0.03;
  capture.source = "test-capture";
  for (int f = 0; f < 3; ++f) capture.frames.push_back({f, 1.0 + f, cloudAround(s, 500 + 100 * f, 0.1, 40 + f)});
  PointCloudLossOptions options;
  options.stride = 2;
  options.weight = 0.5;
  options.averageOverPoints = true;
  PointCloudSurfaceLoss loss(capture, s.triangles, options);
  ASSERT_TRUE(loss.hasResiduals());
  const State state{s.positions, VecX::Zero(s.positions.size()), 0.0};
  for (int step = 0; step <= 5; ++step) {
    std::vector<double> r, c;
    loss.appendResiduals(step, state, r);
    ASSERT_TRUE(loss.appendResidualScales(step, c));
    ASSERT_EQ(r.size(), c.size());
    VecX gx = VecX::Zero(s.positions.size()), gv = gx;
    const double cost = loss.evaluate(step, state, gx, gv);
    const Eigen::Map<const VecX> rv(r.data(), static_cast<Eigen::Index>(r.size()));
    EXPECT_NEAR(0.5 * rv.squaredNorm(), cost, 1e-12 * std::max(cost, 1e-300)) << step;
    const int f = loss.frameAtStep(step);
    if (f < 0) {
      EXPECT_TRUE(r.empty());
      continue;
    }
    const PointCloud& cloud = capture.frames[f].cloud;
    ASSERT_EQ(static_cast<int>(r.size()), cloud.size());
    for (double ci : c) EXPECT_DOUBLE_EQ(ci, std::sqrt(0.5 * (1.0 + f) / cloud.size()));
    // The sign: + outside the box, - inside, for points clear of the surface's jitter.
    // It is the matched triangle's side: beside a jittered (locally concave) corner, where
    // the closest point is a vertex or an edge, that triangle may face away (1 in 200).
    int checked = 0, agree = 0;
    for (int i = 0; i < cloud.size(); ++i) {
      const Vec3 p = cloud.point(i);
      const double outside = ((p - Vec3(0, 0.3, 0)).cwiseAbs() - Vec3(0.5, 0.3, 0.3)).maxCoeff();
      if (std::abs(outside) < 0.04) continue;
      ++checked;
      agree += (r[i] > 0.0) == (outside > 0.0);
    }
    EXPECT_GT(checked, cloud.size() / 4);
    EXPECT_GE(agree, checked - checked / 100 - 1) << agree << " of " << checked;
  }
  // Huber and the noise correction make other costs: no residual form.
  options.huberDelta = 0.05;
  EXPECT_FALSE(PointCloudSurfaceLoss(capture, s.triangles, options).hasResiduals());
  std::vector<double> none;
  EXPECT_FALSE(PointCloudSurfaceLoss(capture, s.triangles, options).appendResidualScales(0, none));
}

TEST(PointCloudSurfaceLoss, MapsFramesToStepsAndIsThreadCountIndependent) {
  const auto s = makeBoxSurface(Vec3(-0.5, 0, -0.3), Vec3(0.5, 0.6, 0.3), 3, 0.02, 31);
  Capture capture;
  capture.dt = 0.03;
  capture.source = "test-capture";
  for (int f = 0; f < 3; ++f) capture.frames.push_back({f, 1.0 + f, cloudAround(s, 2000, 0.1, 40 + f)});
  PointCloudLossOptions options;
  options.stride = 3;
  options.weight = 0.5;
  options.threads = 1;
  PointCloudSurfaceLoss loss(capture, s.triangles, options);
  EXPECT_EQ(loss.lastStep(), 6);
  EXPECT_EQ(loss.frameAtStep(6), 2);
  EXPECT_EQ(loss.frameAtStep(4), -1);
  EXPECT_EQ(loss.frameAtStep(9), -1);
  State state{s.positions, VecX::Zero(s.positions.size()), 0.0};
  VecX gx = VecX::Zero(s.positions.size()), gv = gx;
  EXPECT_EQ(loss.evaluate(4, state, gx, gv), 0.0);
  EXPECT_EQ(gx.norm(), 0.0);
  const double v = loss.evaluate(6, state, gx, gv);
  VecX expected = VecX::Zero(s.positions.size());
  const double e = pointToSurfaceCost(capture.frames[2].cloud, s.positions, s.triangles, RobustKernel{}, 0.5 * 3.0,
                                      &expected);
  EXPECT_EQ(v, e);
  EXPECT_EQ(gx, expected);
  EXPECT_EQ(gv.norm(), 0.0);
  // Same bits with 4 threads.
  options.threads = 4;
  PointCloudSurfaceLoss threaded(capture, s.triangles, options);
  VecX gx4 = VecX::Zero(s.positions.size());
  EXPECT_EQ(threaded.evaluate(6, state, gx4, gv), v);
  EXPECT_EQ(gx4, gx);
  // Averaging divides by the point count.
  options.averageOverPoints = true;
  PointCloudSurfaceLoss averaged(capture, s.triangles, options);
  VecX ga = VecX::Zero(s.positions.size());
  EXPECT_NEAR(averaged.evaluate(6, state, ga, gv), v / 2000, 1e-12 * v);
  // A state with fewer nodes than the surface references: error naming step and frame.
  State small{VecX::Zero(9), VecX::Zero(9), 0.0};
  VecX g9 = VecX::Zero(9);
  expectInputError([&] { loss.evaluate(3, small, g9, g9); }, {"step 3", "capture frame 1", "references node"});
  // Invalid options and clouds name the capture.
  options.stride = 0;
  expectInputError([&] { PointCloudSurfaceLoss(capture, s.triangles, options); }, {"test-capture", "stride"});
  options.stride = 1;
  capture.frames[1].cloud.points(5, 1) = std::nan("");
  expectInputError([&] { PointCloudSurfaceLoss(capture, s.triangles, options); }, {"test-capture", "frame 1", "point 5"});
}

}  // namespace
}  // namespace softfit
