#pragma once
// A target expression: positions for a subset of mesh nodes (vertex correspondences) or
// a scan surface the nodes are pulled onto (closest points, for scans without
// correspondences), and the data term ||M x - N t||^2, normalized by the number of
// correspondences and the squared model size so that its weight against the
// regularizers does not depend on the units or the resolution:
//   L(x) = 1 / (n size^2) sum_k w_k ||x_{node_k} - t_k(x)||^2,
// t_k = the given point, or the closest point of the scan surface to x_{node_k}. For the
// latter, d/dx ||x - cp(x)||^2 = 2 (x - cp(x)) exactly (cp is the minimizer), so every
// gradient stays exact; the Gauss-Newton residual x - cp(x) has the derivative
// I - dcp/dx (n n^T on a triangle, I - e e^T on an edge, I at a vertex: point-to-plane).
#include <memory>
#include <string>
#include <vector>

#include "forward/mesh/triangle_bvh.h"
#include "forward/mesh/triangle_surface.h"

namespace softfit::face {

// A scan surface with its closest-point hierarchy.
struct ScanSurface {
  TriangleSurface triangles;
  TriangleBvh bvh;
};

struct FaceTarget {
  std::string name;
  std::vector<int> nodes;  // mesh node of each correspondence
  PointMatrix points;      // target position of each correspondence (rows match nodes)
  // Per-correspondence weights (empty = all 1); e.g. 0 to hold out a region.
  VecX weights;
  // Closest-point target when set (`points` is then unused): the scan surface.
  std::shared_ptr<const ScanSurface> surface;
};

// A closest-point target pulling `nodes` onto the triangles of `scan`. Throws InputError
// for an empty scan or non-finite vertices (naming scan.source).
FaceTarget makeSurfaceTarget(const std::string& name, const std::vector<int>& nodes, const TriangleSurface& scan);

// Target point t_k at positions x and the derivative of the residual x_k - t_k(x) with
// respect to x_k (identity for vertex correspondences).
struct TargetMatch {
  Vec3 point = Vec3::Zero();
  Mat3 residualDerivative = Mat3::Identity();
};
std::vector<TargetMatch> matchTarget(const FaceTarget& target, const VecX& x);

// L(x) as above; adds dL/dx into *gradient when given (sized 3N).
double targetLoss(const FaceTarget& target, const VecX& x, double modelSize, VecX* gradient = nullptr);
// Per-correspondence distances ||x_node - t||.
VecX correspondenceErrors(const FaceTarget& target, const VecX& x);
// Per-node error (0 where a node has no correspondence), for VTU point data.
VecX nodeErrors(const FaceTarget& target, const VecX& x, int nodeCount);

}  // namespace softfit::face
