#include "observations/depth_renderer.h"

#include "forward/math/parallel_ranges.h"

namespace softfit {

std::vector<TriangleBvh::RayHit> castPixelRays(const Camera& camera, const TriangleBvh& surface, int threads) {
  validateIntrinsics(camera.intrinsics, "camera" + (camera.name.empty() ? std::string() : " " + camera.name));
  const int width = camera.intrinsics.width;
  std::vector<TriangleBvh::RayHit> hits(static_cast<std::size_t>(width) * camera.intrinsics.height);
  forEachRangeInParallel(camera.intrinsics.height, threads, [&](int firstRow, int endRow) {
    for (int v = firstRow; v < endRow; ++v)
      for (int u = 0; u < width; ++u)
        surface.intersectRay(camera.position, camera.pixelDirectionWorld(u, v),
                             hits[static_cast<std::size_t>(v) * width + u]);
  }, 16);
  return hits;
}

DepthMap renderDepth(const Camera& camera, const TriangleBvh& surface) {
  const std::vector<TriangleBvh::RayHit> hits = castPixelRays(camera, surface, 1);
  DepthMap map(camera.intrinsics.width, camera.intrinsics.height);
  for (std::size_t i = 0; i < hits.size(); ++i)
    if (hits[i].triangle >= 0) map.depth[i] = hits[i].t;
  return map;
}

DepthMap renderDepth(const Camera& camera, const VecX& positions, const TriangleMatrix& triangles) {
  return renderDepth(camera, TriangleBvh(positions, triangles));
}

}  // namespace softfit
