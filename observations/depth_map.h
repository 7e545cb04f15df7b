#pragma once
// A depth image in metres (double) and its conversion to a world-space point cloud.
#include <vector>

#include "observations/camera.h"
#include "observations/point_cloud.h"

namespace softfit {

struct DepthMap {
  int width = 0, height = 0;
  std::vector<double> depth;  // row-major (v * width + u); 0 = no measurement

  DepthMap() = default;
  DepthMap(int w, int h) : width(w), height(h), depth(static_cast<std::size_t>(w) * h, 0.0) {}
  double& at(int u, int v) { return depth[static_cast<std::size_t>(v) * width + u]; }
  double at(int u, int v) const { return depth[static_cast<std::size_t>(v) * width + u]; }
  int validCount() const;
};

// Back-projects every pixel with depth > 0 (row by row) to world space (camera.h).
// Throws InputError when the map's size differs from the camera's or a depth is
// negative or not finite.
PointCloud depthMapToCloud(const Camera& camera, const DepthMap& map);  // with pixel ids v w + u

}  // namespace softfit
