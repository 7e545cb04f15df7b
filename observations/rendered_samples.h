#pragma once
// The points a camera rig sees of a triangle surface, one per pixel whose ray hits it,
// and the chain rule of a cost of those points back to the surface's vertices. Shared by
// the rendered-mixture cost (rendered_mixture_cost.h) and the per-pixel cost
// (pixel_point_cost.h).
//
// A rendered point stays on its pixel's ray while the triangle it hits (vertices a_k,
// barycentric b) moves, so ds/da_k = b_k d n^T / (n . d) (n the triangle's normal): a
// cost gradient g at the point reaches vertex k as b_k n (d . g) / (n . d).
#include <string>
#include <vector>

#include "forward/types.h"
#include "observations/camera.h"

namespace softfit {

// Options of the costs of rendered points (rendered_mixture_cost.h, pixel_point_cost.h).
struct RenderedCostOptions {
  double sigma = 0.0;   // noise standard deviation per coordinate (metres, > 0)
  double cutoff = 4.0;  // distances beyond cutoff * sigma count as outliers (>= 1)
  int threads = 0;      // ray casting (and the mixture's sums); 0 = all hardware threads; the result does not depend on it
};
// Throws InputError "<cost>: ..." for sigma <= 0, cutoff < 1, no cameras, or a gradient
// (when given) whose size is not the vertices'.
void validateRenderedCost(const std::string& cost, const RenderedCostOptions& options,
                          const std::vector<Camera>& cameras, const VecX& vertices, const VecX* gradient);
// The pixels of all cameras together (the range of RenderedSample::pixel). Throws
// InputError for invalid intrinsics or more than 1e8 pixels.
long long cameraPixelCount(const std::vector<Camera>& cameras);

// Per camera, per pixel row by row, the ray's nearest hit (as renderCloud, without noise).
struct RenderedSample {
  Vec3 point;           // o + t d
  Vec3 direction;       // the pixel's ray direction d (camera-frame z = 1)
  Vec3 barycentric;     // of the hit in its triangle
  int triangle = -1;
  long long pixel = -1;  // over all cameras: camera c's pixel (u, v) is sum_{c' < c} w h + v w + u
};
// Samples in increasing pixel order. Throws InputError for invalid intrinsics or more
// than 1e8 pixels over all cameras.
std::vector<RenderedSample> renderSamples(const VecX& vertices, const TriangleMatrix& triangles,
                                          const std::vector<Camera>& cameras, int threads = 0);

// Adds weight * sum_j (dsample_j / dvertices)^T g_j to gradient (3V), in sample order.
void addRenderedSampleGradient(const std::vector<RenderedSample>& samples, const std::vector<Vec3>& g,
                               const VecX& vertices, const TriangleMatrix& triangles, double weight, VecX& gradient);

}  // namespace softfit
