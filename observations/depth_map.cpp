#include "observations/depth_map.h"

#include <cmath>
#include <string>

#include "forward/errors.h"

namespace softfit {

int DepthMap::validCount() const {
  int n = 0;
  for (const double d : depth) n += d > 0.0 ? 1 : 0;
  return n;
}

PointCloud depthMapToCloud(const Camera& camera, const DepthMap& map) {
  if (map.width != camera.intrinsics.width || map.height != camera.intrinsics.height)
    throw InputError("depth map is " + std::to_string(map.width) + "x" + std::to_string(map.height) +
                     " but the camera image is " + std::to_string(camera.intrinsics.width) + "x" +
                     std::to_string(camera.intrinsics.height));
  PointCloud cloud;
  cloud.points.resize(map.validCount(), 3);
  cloud.pixels.reserve(static_cast<std::size_t>(map.validCount()));
  int n = 0;
  for (int v = 0; v < map.height; ++v)
    for (int u = 0; u < map.width; ++u) {
      const double d = map.at(u, v);
      if (!std::isfinite(d) || d < 0.0)
        throw InputError("depth map: pixel (" + std::to_string(u) + ", " + std::to_string(v) +
                         ") has an invalid depth");
      if (d == 0.0) continue;
      cloud.points.row(n++) = camera.backProject(u, v, d).transpose();
      cloud.pixels.push_back(static_cast<long long>(v) * map.width + u);
    }
  return cloud;
}

}  // namespace softfit
