// The ground band: a vertical side is extruded down to the floor unchanged, a round
// bottom keeps narrowing along its slope (between the true ball and the extrusion).
#include <gtest/gtest.h>

#include <cmath>

#include "grid/sdf_primitives.h"
#include "reconstruct/sdf_volume_cleanup.h"

namespace softfit {
namespace {

constexpr double kH = 0.005;

int insideBelow(const SdfVolume& v, double height) {
  int n = 0;
  for (int k = 0; k < v.dims[2]; ++k)
    for (int j = 0; j < v.dims[1]; ++j)
      for (int i = 0; i < v.dims[0]; ++i)
        if (v.samplePosition(i, j, k).y() < height && v.values[v.index(i, j, k)] < 0.0) ++n;
  return n;
}

TEST(GroundBand, VerticalSidesAreExtrudedAndRoundBottomsNarrow) {
  const double band = 0.02;
  // A box standing on the floor y = 0 (bottom at -0.01, below the floor).
  SdfVolume box = sampleSdf(BoxSdf(Vec3(0.0, 0.05, 0.0), Vec3(0.05, 0.06, 0.05)), kH);
  const SdfVolume boxBefore = box;
  extrudeIntoGroundBand(box, Vec3::UnitY(), 0.0, band);
  int changed = 0;
  for (long long s = 0; s < box.sampleCount(); ++s) changed += box.values[s] != boxBefore.values[s];
  EXPECT_EQ(insideBelow(box, band), insideBelow(boxBefore, band));  // the same footprint
  EXPECT_GT(changed, 0);  // (the band's samples took the values above it)

  // A ball resting on the floor.
  const double r = 0.1;
  SdfVolume ball = sampleSdf(SphereSdf(Vec3(0.0, r, 0.0), r), kH);
  const int truth = insideBelow(ball, band);
  SdfVolume extruded = ball;
  extrudeIntoGroundBand(ball, Vec3::UnitY(), 0.0, band);
  // The plain extrusion: every band sample copies the sample above the band.
  for (int k = 0; k < extruded.dims[2]; ++k)
    for (int j = 0; j < extruded.dims[1]; ++j)
      for (int i = 0; i < extruded.dims[0]; ++i) {
        const double y = extruded.samplePosition(i, j, k).y();
        if (y < 0.0 || y >= band) continue;
        const int above = j + static_cast<int>(std::lround((band + 0.5 * kH - y) / kH));
        extruded.values[extruded.index(i, j, k)] = ball.values[ball.index(i, above, k)];
      }
  EXPECT_GE(insideBelow(ball, band), truth);
  EXPECT_LT(insideBelow(ball, band), insideBelow(extruded, band));
  // No effect without a band.
  SdfVolume same = sampleSdf(SphereSdf(Vec3(0.0, r, 0.0), r), kH);
  const std::vector<double> values = same.values;
  extrudeIntoGroundBand(same, Vec3::UnitY(), 0.0, 0.0);
  EXPECT_EQ(same.values, values);
}

}  // namespace
}  // namespace softfit
