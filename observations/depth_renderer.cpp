#include "observations/depth_renderer.h"

namespace softfit {

DepthMap renderDepth(const Camera& camera, const TriangleBvh& surface) {
  validateIntrinsics(camera.intrinsics, "camera" + (camera.name.empty() ? std::string() : " " + camera.name));
  DepthMap map(camera.intrinsics.width, camera.intrinsics.height);
  for (int v = 0; v < map.height; ++v)
    for (int u = 0; u < map.width; ++u) {
      TriangleBvh::RayHit hit;
      // The direction has camera-frame z = 1, so the ray parameter is the depth.
      if (surface.intersectRay(camera.position, camera.pixelDirectionWorld(u, v), hit)) map.at(u, v) = hit.t;
    }
  return map;
}

DepthMap renderDepth(const Camera& camera, const VecX& positions, const TriangleMatrix& triangles) {
  return renderDepth(camera, TriangleBvh(positions, triangles));
}

}  // namespace softfit
