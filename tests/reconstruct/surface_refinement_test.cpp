// Refining a fused surface onto rest points: a sphere fused 0.5 mm too small comes onto
// noisy points of its true surface where they are and stays put where no point is; a
// box with one face 0.6 mm off fixes that face and leaves the others (the normal test
// keeps faces meeting at an edge apart); bad input is an InputError.
#include <gtest/gtest.h>

#include <cmath>

#include "forward/errors.h"
#include "grid/sdf_primitives.h"
#include "observations/gaussian_noise.h"
#include "reconstruct/surface_extraction.h"
#include "reconstruct/surface_refinement.h"

namespace softfit {
namespace {

constexpr double kVoxel = 0.006;

SurfaceRefinementOptions options() {
  SurfaceRefinementOptions o;
  o.radius = 4.0 * kVoxel;
  o.maxDistance = 2.0 * kVoxel;
  o.maxShift = kVoxel;
  return o;
}

double meanRadius(const TriangleSurface& s, double yMin, double yMax) {
  double sum = 0.0;
  int n = 0;
  for (int v = 0; v < s.vertexCount(); ++v)
    if (s.vertices(v, 1) > yMin && s.vertices(v, 1) < yMax) {
      sum += s.vertices.row(v).norm();
      ++n;
    }
  return sum / n;
}

TEST(SurfaceRefinement, ShrunkSphereMovesOntoNoisyPointsWhereTheyAre) {
  const double r = 0.1, shrink = 0.0005, sigma = 0.001;
  TriangleSurface surface = extractZeroSurface(sampleSdf(SphereSdf(Vec3::Zero(), r - shrink), kVoxel));
  // Points on the true sphere's upper half (y > 0) with radial noise.
  GaussianNoise noise(7);
  PointCloud points;
  points.points.resize(40000, 3);
  for (int i = 0; i < points.size(); ++i) {
    Vec3 d(noise.next(), std::abs(noise.next()), noise.next());
    d.normalize();
    points.points.row(i) = ((r + sigma * noise.next()) * d).transpose();
  }
  const std::vector<double> sigmas(points.size(), sigma);
  const double seenBefore = meanRadius(surface, 0.03, 1.0), unseenBefore = meanRadius(surface, -1.0, -0.04);
  EXPECT_LT(seenBefore, r - 0.8 * shrink);

  const SurfaceRefinementSummary s = refineSurfaceToPoints(surface, points, sigmas, options());
  EXPECT_EQ(s.pointsUsed, points.size());
  // Vertices end up a little outside: the triangles are chords (up to a voxel long,
  // sagitta 0.045 mm), and the points sit on the sphere between them.
  EXPECT_NEAR(meanRadius(surface, 0.03, 1.0), r, 0.15 * shrink);
  EXPECT_LT(std::abs(meanRadius(surface, 0.03, 1.0) - r), 0.2 * std::abs(seenBefore - r));
  EXPECT_EQ(meanRadius(surface, -1.0, -0.04), unseenBefore);  // no point within reach: not moved
  EXPECT_GT(s.maxShift, shrink);
  EXPECT_LT(s.maxShift, 4.0 * shrink);
}

TEST(SurfaceRefinement, BoxFacesKeepTheirOwnOffsets) {
  const double a = 0.1, off = 0.0006;
  // The +x face fused `off` too far in, every other face right.
  TriangleSurface surface =
      extractZeroSurface(sampleSdf(BoxSdf(Vec3(-0.5 * off, 0, 0), Vec3(a - 0.5 * off, a, a)), kVoxel));
  // Noise-free points on the true box's four side faces and top (none below).
  PointCloud points;
  const int perSide = 80;
  points.points.resize(5 * perSide * perSide, 3);
  int n = 0;
  for (int i = 0; i < perSide; ++i)
    for (int j = 0; j < perSide; ++j) {
      const double u = -a + (2.0 * a) * (i + 0.5) / perSide, w = -a + (2.0 * a) * (j + 0.5) / perSide;
      points.points.row(n++) = Vec3(a, u, w).transpose();
      points.points.row(n++) = Vec3(-a, u, w).transpose();
      points.points.row(n++) = Vec3(u, w, a).transpose();
      points.points.row(n++) = Vec3(u, w, -a).transpose();
      points.points.row(n++) = Vec3(u, a, w).transpose();
    }
  const std::vector<double> sigmas(points.size(), 0.001);
  refineSurfaceToPoints(surface, points, sigmas, options());

  // Mean coordinate of the vertices inside each face (away from its edges).
  auto faceMean = [&](int axis, double sign) {
    double sum = 0.0;
    int count = 0;
    for (int v = 0; v < surface.vertexCount(); ++v) {
      const Vec3 x = surface.vertices.row(v).transpose();
      bool inside = sign * x[axis] > 0.5 * a;
      for (int k = 0; k < 3; ++k)
        if (k != axis) inside = inside && std::abs(x[k]) < a - 5.0 * kVoxel;
      if (inside) {
        sum += sign * x[axis];
        ++count;
      }
    }
    return sum / count;
  };
  EXPECT_NEAR(faceMean(0, 1.0), a, 0.05 * off);   // fixed
  EXPECT_NEAR(faceMean(0, -1.0), a, 0.05 * off);  // was right, stays right
  EXPECT_NEAR(faceMean(1, 1.0), a, 0.05 * off);
  EXPECT_NEAR(faceMean(2, 1.0), a, 0.05 * off);
  EXPECT_NEAR(faceMean(1, -1.0), a, 1e-12);       // no point below: untouched
}

TEST(SurfaceRefinement, BadInputIsAnInputError) {
  TriangleSurface surface = extractZeroSurface(sampleSdf(SphereSdf(Vec3::Zero(), 0.1), kVoxel));
  PointCloud points;
  points.points = PointMatrix::Zero(2, 3);
  EXPECT_THROW(refineSurfaceToPoints(surface, points, {0.001}, options()), InputError);
  EXPECT_THROW(refineSurfaceToPoints(surface, points, {0.001, 0.0}, options()), InputError);
  EXPECT_THROW(refineSurfaceToPoints(surface, points, {0.001, NAN}, options()), InputError);
  SurfaceRefinementOptions bad = options();
  bad.radius = 0.0;
  EXPECT_THROW(refineSurfaceToPoints(surface, points, {0.001, 0.001}, bad), InputError);
  bad = options();
  bad.iterations = -1;
  EXPECT_THROW(refineSurfaceToPoints(surface, points, {0.001, 0.001}, bad), InputError);
  bad = options();
  bad.normalAgreement = 1.5;
  EXPECT_THROW(refineSurfaceToPoints(surface, points, {0.001, 0.001}, bad), InputError);
  TriangleSurface empty;
  EXPECT_THROW(refineSurfaceToPoints(empty, points, {0.001, 0.001}, options()), InputError);
}

}  // namespace
}  // namespace softfit
