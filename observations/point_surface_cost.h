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
//   weight * (sigma^2 / 2) * log(A_t(x) / A_t^ref)
// for the triangle t holding the point's closest point (A_t^ref: t's area in a reference
// configuration, so that a point switching triangles changes the cost only by the
// difference of the two area stretches). Its gradient, sum_t N_t dA_t / A_t =
// sum_t rho_t dA_t, cancels the pressure (the factor 1/2 matches rho = d^2 / 2). It is
// the log-normaliser of the likelihood of noisy samples of a surface whose sample
// density moves with it; on sharp edges (a box's 90 degree edges) it removes ~85% of the
// bias (the rest is beyond first order). Derived for the plain kernel; with Huber it
// applies unchanged, which is right only while most distances are below delta.
#include <utility>
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
  // log of every triangle's reference area; triangles with a non-finite entry (zero
  // reference area) get no term.
  VecX referenceLogArea;
  // Topology: the triangles around every edge (sorted (edge key, triangle) pairs, key =
  // min * vertexCount + max) and every vertex (CSR, ascending).
  long long vertexCount = 0;
  std::vector<std::pair<long long, int>> edgeTriangles;
  std::vector<int> vertexStart, vertexTriangles;
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
// not match the triangles (make the correction with makePointSurfaceNoise).
double pointToSurfaceCost(const PointCloud& cloud, const VecX& positions, const TriangleMatrix& surface,
                          const RobustKernel& kernel, double weight, VecX* gradient, int threads = 1,
                          const PointSurfaceNoise* noise = nullptr);

}  // namespace softfit
