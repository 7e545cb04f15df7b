#pragma once
// Virtual pinhole depth camera: ray casts a triangle surface (e.g. the deformed boundary
// of a tet mesh) into a depth image, one ray through each pixel centre.
#include "observations/depth_map.h"
#include "forward/mesh/triangle_bvh.h"

namespace softfit {

// Depth of the nearest surface hit per pixel (0 where the ray misses). Deterministic.
DepthMap renderDepth(const Camera& camera, const TriangleBvh& surface);
// Convenience: builds the BVH of `triangles` over the flat 3N `positions` first.
DepthMap renderDepth(const Camera& camera, const VecX& positions, const TriangleMatrix& triangles);

}  // namespace softfit
