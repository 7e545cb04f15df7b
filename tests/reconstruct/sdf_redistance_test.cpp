// Redistancing a sampled SDF to its own zero surface: a sphere sampled with values that
// are not distances (3x too steep, clamped at 3 voxels outside, like a TSDF)
// comes back as the sphere's distance (within the marching-cubes error); an open
// surface leaves the volume as it was.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "grid/sdf_primitives.h"
#include "reconstruct/sdf_redistance.h"
#include "reconstruct/surface_extraction.h"

namespace softfit {
namespace {

TEST(SdfRedistance, SteepClampedSphereBecomesItsDistance) {
  const double r = 0.2, h = 0.02;
  SdfVolume volume = sampleSdf(SphereSdf(Vec3::Zero(), r), h);
  for (double& v : volume.values) v = std::min(3.0 * v, 3.0 * h);  // same zero surface
  const TriangleSurface surface = extractZeroSurface(volume);
  ASSERT_TRUE(redistanceToSurface(volume, surface));
  double worst = 0.0;
  for (int k = 0; k < volume.dims[2]; ++k)
    for (int j = 0; j < volume.dims[1]; ++j)
      for (int i = 0; i < volume.dims[0]; ++i) {
        const Vec3 p = volume.origin + Vec3(i, j, k).cwiseProduct(volume.spacing);
        worst = std::max(worst, std::abs(volume.values[volume.index(i, j, k)] - (p.norm() - r)));
      }
  EXPECT_LT(worst, 0.1 * h);
}

TEST(SdfRedistance, OpenSurfaceLeavesTheVolume) {
  SdfVolume volume = sampleSdf(SphereSdf(Vec3::Zero(), 0.2), 0.02);
  TriangleSurface surface = extractZeroSurface(volume);
  surface.triangles.conservativeResize(surface.triangles.rows() - 1, 3);  // a hole
  const std::vector<double> before = volume.values;
  EXPECT_FALSE(redistanceToSurface(volume, surface));
  EXPECT_EQ(volume.values, before);
}

}  // namespace
}  // namespace softfit
