// The ideal rendering with incidence angles: the same depths as the depth renderer, and
// the cosine between ray and surface normal of a tilted plane.
#include "observations/surface_view.h"

#include <gtest/gtest.h>

#include <cmath>

#include "observations/depth_renderer.h"

namespace softfit {
namespace {

TEST(SurfaceView, DepthAsTheRendererAndTheIncidenceOfATiltedPlane) {
  Camera camera;
  camera.intrinsics = {100.0, 100.0, 14.5, 9.5, 30, 20};
  // A 0.5 x 0.5 square through (0, 0, 2), normal tilted 40 degrees from the view axis
  // about the camera's y axis: it covers the image centre, not the corners.
  const double a = 40.0 * M_PI / 180.0;
  const Vec3 t(std::cos(a), 0, -std::sin(a)), s(0, 1, 0), c(0, 0, 2);
  VecX x(12);
  x << c - 0.25 * (t + s), c + 0.25 * (t - s), c + 0.25 * (t + s), c - 0.25 * (t - s);
  TriangleMatrix tri(2, 3);
  tri << 0, 1, 2, 0, 2, 3;
  const SurfaceView view = renderSurfaceView(camera, TriangleBvh(x, tri), x, tri);
  EXPECT_EQ(view.depth.depth, renderDepth(camera, x, tri).depth);
  ASSERT_GT(view.depth.at(15, 10), 0.0);
  EXPECT_EQ(view.depth.at(0, 0), 0.0);
  EXPECT_EQ(view.cosIncidence[0], 0.0);  // a miss
  for (int v = 0; v < 20; ++v)
    for (int u = 0; u < 30; ++u) {
      if (view.depth.at(u, v) == 0.0) continue;
      const Vec3 ray = camera.pixelDirectionWorld(u, v).normalized();
      const Vec3 normal(std::sin(a), 0, std::cos(a));
      EXPECT_NEAR(view.cosIncidence[v * 30 + u], std::abs(ray.dot(normal)), 1e-12);
    }
  EXPECT_NEAR(view.cosIncidence[10 * 30 + 15], std::cos(a), 0.01);
  const SurfaceView head = headOnView(view.depth);
  EXPECT_EQ(head.cosIncidence, std::vector<double>(600, 1.0));
}

}  // namespace
}  // namespace softfit
