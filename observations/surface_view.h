#pragma once
// An ideal depth rendering that also records, per pixel, how obliquely the ray meets the
// surface (the input of the sensor model's grazing-angle and lateral-noise terms,
// depth_sensor_model.h). Same rays and depths as depth_renderer.h.
#include <vector>

#include "observations/depth_map.h"
#include "forward/mesh/triangle_bvh.h"

namespace softfit {

struct SurfaceView {
  DepthMap depth;                    // camera-frame z of the nearest hit, 0 = miss
  std::vector<double> cosIncidence;  // |cos| of the angle between ray and triangle normal; 0 on misses
};

// Ray casts `bvh` (built over `positions` / `triangles`, flat 3N) from `camera`.
// Throws InputError for invalid intrinsics.
SurfaceView renderSurfaceView(const Camera& camera, const TriangleBvh& bvh, const VecX& positions,
                              const TriangleMatrix& triangles);

// A view with every cosine 1 (head-on), e.g. for a depth map from elsewhere.
SurfaceView headOnView(const DepthMap& depth);

}  // namespace softfit
