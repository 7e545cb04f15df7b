// The flying-pixel rule on a depth step: mixed pixels between foreground and background
// and isolated pixels go, true edge pixels of both sides stay.
#include <gtest/gtest.h>

#include "reconstruct/flying_pixel_filter.h"

namespace softfit {
namespace {

TEST(FlyingPixelFilter, RemovesMixedAndIsolatedPixelsKeepsEdges) {
  DepthMap map(10, 5);
  for (int v = 0; v < 5; ++v)
    for (int u = 0; u < 10; ++u) map.at(u, v) = u < 5 ? 1.0 : 2.0;  // step between u = 4 and 5
  map.at(5, 2) = 1.5;   // a flying pixel: mixed foreground / background depth
  map.at(8, 0) = 0.0;   // a hole
  map.at(9, 4) = 0.0;
  DepthMap island(10, 5);
  const DepthNoise noise;
  const int removed = removeFlyingPixels(map, 500.0, noise);
  EXPECT_EQ(removed, 1);
  EXPECT_EQ(map.at(5, 2), 0.0);
  EXPECT_EQ(map.at(4, 2), 1.0) << "foreground edge pixel kept";
  EXPECT_EQ(map.at(6, 2), 2.0) << "background edge pixel kept";

  island.at(3, 3) = 1.0;  // one pixel alone
  EXPECT_EQ(removeFlyingPixels(island, 500.0, noise), 1);
  EXPECT_EQ(island.validCount(), 0);
}

TEST(FlyingPixelFilter, KeepsASteepSurfaceInACoarseImage) {
  DepthMap slope(12, 3);
  for (int v = 0; v < 3; ++v)
    for (int u = 0; u < 12; ++u) slope.at(u, v) = 1.0 + 0.1 * u;  // 10% of z per pixel: 70 degrees at fx = 30
  EXPECT_EQ(removeFlyingPixels(slope, 30.0, DepthNoise{}), 0);
}

}  // namespace
}  // namespace softfit
