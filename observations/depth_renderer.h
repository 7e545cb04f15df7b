#pragma once
// Virtual pinhole depth camera: ray casts a triangle surface (e.g. the deformed boundary
// of a tet mesh) into a depth image, one ray through each pixel centre.
#include <vector>

#include "observations/depth_map.h"
#include "forward/mesh/triangle_bvh.h"

namespace softfit {

// The nearest hit of every pixel's ray (pixel (u, v) at v * width + u; a miss has
// triangle -1), the ray through the pixel centre with direction
// camera.pixelDirectionWorld(u, v) (camera-frame z = 1, so hit.t is the depth). Rows run
// on up to `threads` threads (0 = all); each pixel writes only its own slot, so the
// result does not depend on the count. Throws InputError for invalid intrinsics.
std::vector<TriangleBvh::RayHit> castPixelRays(const Camera& camera, const TriangleBvh& surface, int threads);

// Depth of the nearest surface hit per pixel (0 where the ray misses). Deterministic.
DepthMap renderDepth(const Camera& camera, const TriangleBvh& surface);
// Convenience: builds the BVH of `triangles` over the flat 3N `positions` first.
DepthMap renderDepth(const Camera& camera, const VecX& positions, const TriangleMatrix& triangles);

}  // namespace softfit
