#include "observations/surface_view.h"

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>

#include "forward/math/parallel_ranges.h"

namespace softfit {

SurfaceView renderSurfaceView(const Camera& camera, const TriangleBvh& bvh, const VecX& positions,
                              const TriangleMatrix& triangles) {
  validateIntrinsics(camera.intrinsics, "camera" + (camera.name.empty() ? std::string() : " " + camera.name));
  SurfaceView view;
  view.depth = DepthMap(camera.intrinsics.width, camera.intrinsics.height);
  view.cosIncidence.assign(view.depth.depth.size(), 0.0);
  const auto renderRows = [&](int firstRow, int endRow) {
    for (int v = firstRow; v < endRow; ++v)
      for (int u = 0; u < view.depth.width; ++u) {
        const Vec3 direction = camera.pixelDirectionWorld(u, v);
        TriangleBvh::RayHit hit;
        // The direction has camera-frame z = 1, so the ray parameter is the depth.
        if (!bvh.intersectRay(camera.position, direction, hit)) continue;
        const auto node = [&](int k) -> Vec3 { return positions.segment<3>(3 * triangles(hit.triangle, k)); };
        const Vec3 normal = (node(1) - node(0)).cross(node(2) - node(0));
        const double scale = normal.norm() * direction.norm();
        const std::size_t i = static_cast<std::size_t>(v) * view.depth.width + u;
        view.depth.depth[i] = hit.t;
        view.cosIncidence[i] = scale > 0.0 ? std::min(1.0, std::abs(normal.dot(direction)) / scale) : 0.0;
      }
  };
  // Rows in parallel; every pixel writes only its own slots (same bits for any thread count).
  forEachRangeInParallel(view.depth.height, 0, renderRows, 16);
  return view;
}

SurfaceView headOnView(const DepthMap& depth) {
  SurfaceView view;
  view.depth = depth;
  view.cosIncidence.assign(depth.depth.size(), 1.0);
  return view;
}

}  // namespace softfit
