#pragma once
// The fused rest surface moved onto the rest frames' own points.
//
// Why: TSDF fusion with carving (tsdf_fusion.h) leaves the demo box's faces 0.1-0.45 mm
// off on average (rms up to 1.8 mm), while the rest points themselves lie within 0.04 mm
// of the true faces on average (Kinect noise is zero-mean, and the object stands still
// across 5 frames). The fit's Poisson ratio is that sensitive to the rest shape: the true
// box with the same Kinect observations fits nu 0.294, the fused one 0.322, and the true
// box grown by 0.6 mm fits 0.256 (bench/README.md, "rest surface refinement").
//
// Each iteration (a kernel-smoothed, normal-constrained point-to-plane step, as in the
// MLS / non-rigid ICP family; Alexa et al. 2003, "Computing and Rendering Point Set
// Surfaces", IEEE TVCG):
//  1. every point p (noise sigma s) finds its closest surface point q on triangle t
//     (forward/mesh/triangle_bvh.h) and, when |r| <= 3 s + maxDistance, adds its residual
//     r = (p - q) . n_t along the face normal to t's three vertices with weights
//     w b_i (w = 1 / s^2, b the barycentric coordinates of q);
//  2. each vertex v moves along its normal n_v by
//        d_v = sum_u K_vu R_u / (sum_u K_vu W_u + prior)
//     over the vertices u within `radius` whose normal agrees with n_v (n_u . n_v >=
//     normalAgreement, so the faces meeting at an edge keep their own offsets), with
//     R_u, W_u the accumulated weighted residuals and weights, K the Gaussian of standard
//     deviation radius / 2 and prior the weight of one point of the median sigma (so a
//     vertex no point sees does not move); |d_v| is capped at maxShift.
// Deterministic (serial loops in index order). Topology is unchanged.
#include <vector>

#include "forward/mesh/triangle_surface.h"
#include "observations/point_cloud.h"

namespace softfit {

struct SurfaceRefinementOptions {
  int iterations = 3;
  double radius = 0.024;          // kernel support (m); reconstruct uses 4 TSDF voxels
  double normalAgreement = 0.8;   // cos of the largest angle between vertex normals averaged together
  double maxDistance = 0.012;     // points farther than 3 sigma + this from the surface are ignored (m)
  double maxShift = 0.006;        // cap on one iteration's move of a vertex (m)
};

struct SurfaceRefinementSummary {
  int pointsUsed = 0;          // points within reach in the last iteration
  double meanShift = 0.0;      // mean |total move| over vertices (m)
  double maxShift = 0.0;       // largest |total move| of a vertex (m)
};

// `sigmas` holds each point's depth noise (m), one per point. Throws InputError when the
// sizes differ, a sigma is not positive and finite, or an option is out of range
// (iterations < 0, radius <= 0, normalAgreement outside [-1, 1], negative distances).
SurfaceRefinementSummary refineSurfaceToPoints(TriangleSurface& surface, const PointCloud& points,
                                               const std::vector<double>& sigmas,
                                               const SurfaceRefinementOptions& options);

}  // namespace softfit
