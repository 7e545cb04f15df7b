// Trimming the shadow fill by the seen surface's winding number: a ball on a column of
// fill down to the floor (what space carving leaves under a body no camera sees below)
// loses the column, keeps the seen ball, and the ground band under the column follows;
// a fully seen ball, a floor margin above the column, or a mask that allows nothing,
// leaves the volume's bits alone; bad
// input is an InputError.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "forward/errors.h"
#include "grid/sdf_primitives.h"
#include "reconstruct/surface_extraction.h"
#include "reconstruct/unseen_fill_trim.h"

namespace softfit {
namespace {

constexpr double kH = 0.01, kRadius = 0.1, kBand = 0.02;
const Vec3 kCenter(0.0, 0.25, 0.0);

// The ball (bottom at y = 0.15) plus, with `column`, a 0.12 x 0.12 column from the floor
// (y = 0) into it; clipped at the floor.
SdfVolume ballVolume(bool column) {
  const SphereSdf ball(kCenter, kRadius);
  const BoxSdf fill(Vec3(0.0, 0.125, 0.0), Vec3(0.06, 0.125, 0.06));
  SdfVolume v;
  v.origin = Vec3(-0.15, -0.03, -0.15);
  v.spacing = Vec3::Constant(kH);
  v.dims = Eigen::Vector3i(31, 40, 31);
  v.values.resize(v.sampleCount());
  for (int k = 0; k < v.dims[2]; ++k)
    for (int j = 0; j < v.dims[1]; ++j)
      for (int i = 0; i < v.dims[0]; ++i) {
        const Vec3 x = v.samplePosition(i, j, k);
        double phi = ball.value(x);
        if (column) phi = std::min(phi, fill.value(x));
        v.values[v.index(i, j, k)] = std::max(phi, -x.y());
      }
  return v;
}

// Noise-free points on the ball above height `lowest` relative to its centre.
PointCloud ballPoints(double lowest) {
  PointCloud p;
  std::vector<Vec3> points;
  const int n = 200;
  for (int a = 0; a < n; ++a)
    for (int b = 0; b <= n / 2; ++b) {
      const double phi = 2.0 * M_PI * a / n, theta = M_PI * b / (n / 2);
      const Vec3 d(std::sin(theta) * std::cos(phi), std::cos(theta), std::sin(theta) * std::sin(phi));
      if (kRadius * d.y() >= lowest) points.push_back(kCenter + kRadius * d);
    }
  p.points.resize(static_cast<Eigen::Index>(points.size()), 3);
  for (std::size_t i = 0; i < points.size(); ++i) p.points.row(static_cast<Eigen::Index>(i)) = points[i].transpose();
  return p;
}

UnseenFillOptions options() {
  UnseenFillOptions o;
  o.groundBand = kBand;
  return o;
}

TEST(UnseenFillTrim, ColumnUnderASeenBallIsRemovedDownToTheFloor) {
  SdfVolume v = ballVolume(true);
  const SdfVolume before = v;
  const TriangleSurface surface = extractZeroSurface(v);
  const UnseenFillResult r = trimUnseenFill(v, surface, ballPoints(-0.5 * kRadius), {}, options());
  EXPECT_GT(r.unseenTriangles, 0);
  EXPECT_GT(r.seenTriangles, r.unseenTriangles);
  EXPECT_GT(r.trimmedSamples, 0);
  EXPECT_GE(r.removedSamples, r.trimmedSamples);
  const SphereSdf ball(kCenter, kRadius);
  int columnSamples = 0, keptBall = 0;
  for (int k = 0; k < v.dims[2]; ++k)
    for (int j = 0; j < v.dims[1]; ++j)
      for (int i = 0; i < v.dims[0]; ++i) {
        const Vec3 x = v.samplePosition(i, j, k);
        const double phi = v.values[v.index(i, j, k)];
        // The column between the floor and the ball (band included): outside now.
        if (std::abs(x.x()) < 0.05 && std::abs(x.z()) < 0.05 && x.y() > 0.0 && x.y() < 0.13) {
          EXPECT_GT(phi, 0.0) << x.transpose();
          EXPECT_LT(before.values[v.index(i, j, k)], 0.0);
          ++columnSamples;
        }
        // The seen part of the ball stays inside.
        if (ball.value(x) < -kH && x.y() - kCenter.y() > -0.5 * kRadius + 2.0 * kH) {
          EXPECT_LT(phi, 0.0) << x.transpose();
          ++keptBall;
        }
      }
  EXPECT_GT(columnSamples, 100);
  EXPECT_GT(keptBall, 1000);
}

TEST(UnseenFillTrim, NothingChangesWhenAllIsSeenOrNothingIsTrimmable) {
  {
    SdfVolume v = ballVolume(false);
    const std::vector<double> before = v.values;
    const UnseenFillResult r = trimUnseenFill(v, extractZeroSurface(v), ballPoints(-2.0 * kRadius), {}, options());
    EXPECT_EQ(r.unseenTriangles, 0);
    EXPECT_EQ(r.trimmedSamples, 0);
    EXPECT_EQ(v.values, before);
  }
  {  // a floor margin above the column: nothing below it is trimmed
    SdfVolume v = ballVolume(true);
    const std::vector<double> before = v.values;
    UnseenFillOptions o = options();
    o.floorMargin = 0.2;
    const UnseenFillResult r = trimUnseenFill(v, extractZeroSurface(v), ballPoints(-0.5 * kRadius), {}, o);
    EXPECT_EQ(r.trimmedSamples, 0);
    EXPECT_EQ(v.values, before);
  }
  SdfVolume v = ballVolume(true);
  const std::vector<double> before = v.values;
  const std::vector<char> none(v.sampleCount(), 0);
  const UnseenFillResult r = trimUnseenFill(v, extractZeroSurface(v), ballPoints(-0.5 * kRadius), none, options());
  EXPECT_GT(r.unseenTriangles, 0);
  EXPECT_EQ(r.trimmedSamples, 0);
  EXPECT_EQ(v.values, before);
}

TEST(UnseenFillTrim, BadInputIsAnInputError) {
  SdfVolume v = ballVolume(true);
  const TriangleSurface surface = extractZeroSurface(v);
  const PointCloud points = ballPoints(0.0);
  EXPECT_THROW(trimUnseenFill(v, TriangleSurface{}, points, {}, options()), InputError);
  EXPECT_THROW(trimUnseenFill(v, surface, PointCloud{}, {}, options()), InputError);
  EXPECT_THROW(trimUnseenFill(v, surface, points, std::vector<char>(3, 1), options()), InputError);
  UnseenFillOptions o = options();
  o.groundBand = -1.0;
  EXPECT_THROW(trimUnseenFill(v, surface, points, {}, o), InputError);
  o = options();
  o.floorMargin = -0.01;
  EXPECT_THROW(trimUnseenFill(v, surface, points, {}, o), InputError);
}

}  // namespace
}  // namespace softfit
