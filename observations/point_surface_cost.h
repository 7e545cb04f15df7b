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
//
// Noise correction (PointSurfaceNoise, sigma > 0): with isotropic Gaussian noise of
// standard deviation sigma on the points, E d(s + n)^2 = d(s)^2 + sigma^2 (1 + d lap d)
// + O(sigma^4): the plain cost is lowest for a surface inflated where it is convex (a
// sphere of radius R fits with R + sigma^2 / R), which biases the shape and with it the
// material. To first order in sigma^2 that bias is a pressure sigma^2 (k1 + k2) rho on
// the surface (rho: points per unit area, k1 + k2: mean curvature sum), i.e. the
// negative first variation of sigma^2 * (the area weighted by rho). The correction adds
// per point
//   weight * (sigma^2 / 2) * sum_j b_j log(A_j(x) / A_j^ref)
// with b_j the barycentric coordinates of the point's closest point and A_j the area of
// the surface around vertex j (a third of its triangles' areas; A_j^ref: in a reference
// configuration). Its gradient includes sum_v N_v dA_v / A_v = sum_v rho_v dA_v
// (N_v = sum_i b_iv), which cancels the pressure (the factor 1/2 matches rho = d^2 / 2),
// and the derivative of b_j (the closest point sliding over the area-change field), so
// the cost stays continuous (ties between triangles sharing an edge or vertex give the
// same b) and its gradient exact (checked by finite differences). It is the
// log-normaliser of the likelihood of noisy samples of a surface whose sample density
// moves with it. On sharp edges (a box's 90 degree edges) it removes ~85-90% of the
// inflation (the rest is beyond first order). Derived for the plain kernel; with Huber
// it applies unchanged, which is right only while most distances are below delta.
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

// Noise correction of the point-to-surface cost (see above). Build it with
// makePointSurfaceNoise.
struct PointSurfaceNoise {
  double sigma = 0.0;  // noise standard deviation per coordinate (metres); 0: no correction
  // log of every vertex's reference area (a third of its triangles'); vertices on no
  // triangle or with zero reference area: -inf (no term).
  VecX referenceLogVertexArea;
};

// The correction for noise `sigma` on `surface` with reference vertex positions
// `referencePositions` (3 * vertices). Throws InputError for a negative or non-finite
// sigma or a triangle index out of range.
PointSurfaceNoise makePointSurfaceNoise(double sigma, const VecX& referencePositions, const TriangleMatrix& surface);

// log(area) of every triangle at `positions` (-inf for a zero-area triangle).
VecX triangleLogAreas(const VecX& positions, const TriangleMatrix& surface);

// J for one frame; when `gradient` is non-null adds dJ/dx to it (size of positions).
// With `noise` (sigma > 0) adds the noise correction above. Throws InputError for a bad
// triangle index, non-finite positions, a gradient of the wrong size, an empty surface
// with a non-empty cloud, a negative or non-finite sigma, or reference areas that do
// not match the vertices (make the correction with makePointSurfaceNoise).
double pointToSurfaceCost(const PointCloud& cloud, const VecX& positions, const TriangleMatrix& surface,
                          const RobustKernel& kernel, double weight, VecX* gradient, int threads = 1,
                          const PointSurfaceNoise* noise = nullptr);

}  // namespace softfit
