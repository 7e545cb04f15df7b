#include "observations/surface_view.h"

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>

#include "observations/depth_renderer.h"

namespace softfit {

SurfaceView renderSurfaceView(const Camera& camera, const TriangleBvh& bvh, const VecX& positions,
                              const TriangleMatrix& triangles) {
  const std::vector<TriangleBvh::RayHit> hits = castPixelRays(camera, bvh, 0);
  SurfaceView view;
  view.depth = DepthMap(camera.intrinsics.width, camera.intrinsics.height);
  view.cosIncidence.assign(view.depth.depth.size(), 0.0);
  for (int v = 0; v < view.depth.height; ++v)
    for (int u = 0; u < view.depth.width; ++u) {
      const std::size_t i = static_cast<std::size_t>(v) * view.depth.width + u;
      const TriangleBvh::RayHit& hit = hits[i];
      if (hit.triangle < 0) continue;
      const Vec3 direction = camera.pixelDirectionWorld(u, v);
      const auto node = [&](int k) -> Vec3 { return positions.segment<3>(3 * triangles(hit.triangle, k)); };
      const Vec3 normal = (node(1) - node(0)).cross(node(2) - node(0));
      const double scale = normal.norm() * direction.norm();
      view.depth.depth[i] = hit.t;
      view.cosIncidence[i] = scale > 0.0 ? std::min(1.0, std::abs(normal.dot(direction)) / scale) : 0.0;
    }
  return view;
}

SurfaceView headOnView(const DepthMap& depth) {
  SurfaceView view;
  view.depth = depth;
  view.cosIncidence.assign(depth.depth.size(), 1.0);
  return view;
}

}  // namespace softfit
