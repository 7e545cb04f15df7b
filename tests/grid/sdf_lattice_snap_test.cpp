// Snapping conventions of the SDF lattice: relative to h (default, snapFraction) and the
// thesis' absolute distance (snapDistance). The thesis cuboid (Table 4.1) tells them
// apart at r = 7 and r = 14: the x faces at +-1.29 lie 0.0043 outside the nodes at
// x = +-9/7 = +-18/14, closer than 0.01 but farther than 0.01 h.
#include <gtest/gtest.h>

#include <cmath>

#include "forward/errors.h"
#include "grid/cut_cell_grid.h"
#include "grid/sdf_lattice.h"
#include "grid/sdf_primitives.h"

namespace softfit {
namespace {

const BoxSdf kThesisCuboid(Vec3(0, 1, 0), Vec3(1.29, 0.4, 0.8));

CutCellGrid cuboid(int r, std::optional<double> snapDistance) {
  LatticeOptions options;
  options.cellSize = 1.0 / r;
  options.snapDistance = snapDistance;
  return CutCellGrid(sampleSdfLattice(kThesisCuboid, options));
}

TEST(SdfLatticeSnap, AbsoluteDistanceReproducesTheThesisCountsAtR7AndR14) {
  // Table 4.1 (grid free nodes / elements): r = 7: 1729 / 1296, r = 14: 12025 / 10368.
  const CutCellGrid thesis7 = cuboid(7, 0.01), thesis14 = cuboid(14, 0.01);
  EXPECT_EQ(thesis7.nodeCount(), 1729);
  EXPECT_EQ(thesis7.cellCount(), 1296);
  EXPECT_EQ(thesis14.nodeCount(), 12025);
  EXPECT_EQ(thesis14.cellCount(), 10368);
  // The default (0.01 h) keeps the 0.0043 sliver: one more cell layer on each x face.
  const CutCellGrid relative7 = cuboid(7, std::nullopt), relative14 = cuboid(14, std::nullopt);
  EXPECT_EQ(relative7.nodeCount(), 1911);
  EXPECT_EQ(relative7.cellCount(), 1440);
  EXPECT_EQ(relative14.nodeCount(), 12675);
  EXPECT_EQ(relative14.cellCount(), 10944);
  // Where no value lies between 0.01 h and 0.01 the two conventions agree (r = 5, 10).
  for (int r : {5, 10}) {
    EXPECT_EQ(cuboid(r, 0.01).nodeCount(), cuboid(r, std::nullopt).nodeCount()) << "r = " << r;
    EXPECT_EQ(cuboid(r, 0.01).cellCount(), cuboid(r, std::nullopt).cellCount()) << "r = " << r;
  }
}

TEST(SdfLatticeSnap, DistanceEqualToTheFractionGivesTheSameBits) {
  const SphereSdf sphere(Vec3(0.013, 0.4, -0.02), 0.2);
  LatticeOptions relative;
  relative.cellSize = 0.05;
  relative.snapFraction = 0.2;  // 0.01 world units
  LatticeOptions absolute = relative;
  absolute.snapFraction = 0.0;  // ignored once snapDistance is set
  absolute.snapDistance = 0.2 * 0.05;
  const SdfLattice a = sampleSdfLattice(sphere, relative), b = sampleSdfLattice(sphere, absolute);
  EXPECT_EQ(a.values(), b.values());
  EXPECT_EQ(a.cellSamples(6, 6, 6).values, b.cellSamples(6, 6, 6).values);
  // And it snaps in world units: no value with 0 < |phi| < 0.01 is left.
  int snapped = 0;
  for (double v : b.values()) {
    EXPECT_FALSE(v != 0.0 && std::abs(v) < 0.01) << v;
    snapped += v == 0.0;
  }
  EXPECT_GT(snapped, 0);
}

TEST(SdfLatticeSnap, RejectsADistanceOutsideHalfTheCell) {
  const SphereSdf sphere(Vec3::Zero(), 0.2);
  LatticeOptions options;
  options.cellSize = 0.05;
  for (double bad : {-0.001, 0.025, 1.0, std::nan("")}) {
    options.snapDistance = bad;
    EXPECT_THROW(sampleSdfLattice(sphere, options), InputError) << bad;
  }
  options.snapDistance = 0.0;  // no snapping at all
  EXPECT_NO_THROW(sampleSdfLattice(sphere, options));
}

}  // namespace
}  // namespace softfit
