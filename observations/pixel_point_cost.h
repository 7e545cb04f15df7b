#pragma once
// The per-pixel point cost of one frame: each observed point against the point the
// model's surface shows at the same pixel, as a depth camera's image gives it (known
// correspondences, unlike the closest-point or mixture costs).
//
// Point i was seen at pixel p_i (PointCloud::pixels); the model's ray through p_i hits
// its surface at s_{p_i}(x) (rendered_samples.h). With isotropic Gaussian noise of
// sigma on each point, the negative log-likelihood is, up to a constant and the factor
// sigma^2 (so that it reads as 1/2 d^2),
//   J(x) = sum_i 1/2 min(|y_i - s_{p_i}(x)|^2, (c sigma)^2),
// truncated at c sigma (c = cutoff) for outliers; a point whose pixel the model's
// surface does not cover costs the truncation value. Its expected gradient vanishes at
// the true parameters (a likelihood), so noise does not bias it, and because each point
// keeps its pixel it also sees the surface's sliding along itself, which a cost without
// correspondences cannot (the closer of the two Cramer-Rao bounds). Pixels change hands
// at silhouettes, where the cost jumps (use a gradient-only line search). Gradient:
// g = s - y at each rendered point within the truncation, chained along the rays.
// Deterministic: summed in point order.
#include <vector>

#include "forward/types.h"
#include "observations/camera.h"
#include "observations/point_cloud.h"
#include "observations/rendered_samples.h"

namespace softfit {

// sigma, threads, and cutoff: residuals beyond cutoff * sigma count as outliers.
using PixelPointOptions = RenderedCostOptions;

// weight * J(x) of one frame's `cloud` (its pixel ids over `cameras`, in their order);
// adds weight * dJ/dvertices to *gradient (3V) when given. Throws InputError for
// sigma <= 0, cutoff < 1, no camera, a cloud without one pixel id per point, a pixel id
// outside the cameras' images, or a triangle index out of range.
double pixelPointCost(const PointCloud& cloud, const VecX& vertices, const TriangleMatrix& triangles,
                      const std::vector<Camera>& cameras, const PixelPointOptions& options, double weight,
                      VecX* gradient);

}  // namespace softfit
