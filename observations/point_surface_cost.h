#pragma once
// Correspondence-free point-to-surface cost of one frame:
//   J(x) = weight * sum_i rho(|p_i - q_i(x)|),  q_i = sum_j b_ij x_{t_ij}
// where q_i is the closest point to p_i on the surface triangles (indices into the
// body's nodes, positions x), b_ij its barycentric coordinates on triangle t_i, and rho
// the robust kernel (robust_kernel.h; plain rho = d^2 / 2 gives 1/2 |p - q|^2).
// Gradient: dJ/dx_{t_ij} = weight * rho'(d)/d * (q_i - p_i) * b_ij. The motion of the
// closest point along the surface does not contribute (envelope theorem: p - q is
// normal to the surface at q), so the formula is exact wherever the closest point is
// unique (not on the medial axis).
#include <vector>

#include "observations/point_cloud.h"
#include "observations/robust_kernel.h"
#include "forward/mesh/triangle_bvh.h"

namespace softfit {

struct PointSurfaceMatch {
  int triangle = -1;
  Vec3 barycentric = Vec3::Zero();
  Vec3 point = Vec3::Zero();  // closest surface point q
  double distance = 0.0;
};

// Closest surface point of every cloud point, computed with `threads` threads (0 = all
// hardware threads); the result does not depend on the thread count.
std::vector<PointSurfaceMatch> matchPointsToSurface(const PointCloud& cloud, const TriangleBvh& surface,
                                                    int threads = 1);

// J for one frame; when `gradient` is non-null adds dJ/dx to it (size of positions).
// Throws InputError for a bad triangle index, non-finite positions, a gradient of the
// wrong size, or an empty surface with a non-empty cloud.
double pointToSurfaceCost(const PointCloud& cloud, const VecX& positions, const TriangleMatrix& surface,
                          const RobustKernel& kernel, double weight, VecX* gradient, int threads = 1);

}  // namespace softfit
