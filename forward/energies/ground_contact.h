#pragma once
// Penalty ground plane with the thesis' softmin springs (docs/theory.rst, section 4):
// per contact point p, f = -k A_p softmin_alpha(0, d) n with d = n.x + offset and
// softmin(0, d) = -log(1 + exp(-alpha d)) / alpha. The matching potential is
// Phi(d) = -k A_p Li2(-exp(-alpha d)) / alpha^2 (convex), so the springs fit the
// incremental-potential integrators and their line searches exactly.
// A_p is the rest-surface area the point stands for (ContactPoint::area), so k is a
// stiffness per unit area (N/m^3 in scenes) and the ground's force on a resting face
// does not depend on how many lattice points or mesh vertices sample it. The areas are
// constants of the rest shape: no parameter (ground plane, material) depends on them.
#include <vector>

#include "forward/solvers/block_sparse_pattern.h"
#include "forward/types.h"

namespace softfit {

struct GroundPlane {
  Vec3 normal = Vec3(0, 1, 0);  // unit normal pointing into the free half-space
  double offset = 0.0;          // dist(x) = normal . x + offset
  double stiffness = 1e4;       // k_g
  double sharpness = 100.0;     // alpha
};

// Numerically stable scalar pieces, exposed for tests.
double softminZero(double d, double alpha);           // softmin_alpha(0, d)
double softminZeroDerivative(double d, double alpha);  // d softmin / dd = 1 / (1 + exp(alpha d))
double softminZeroSecondDerivative(double d, double alpha);
double softminZeroPotential(double d, double alpha);   // Phi with Phi' = softmin, Phi(+inf) = 0
double dilogarithm(double x);                          // Li2(x) for x <= 1

// A point that touches the ground: a mesh node (one weight 1) or a point embedded in an
// element (e.g. a surface crossing on a cut-cell edge), p = sum_a w_a x_a. All its
// nodes must share an element so the Hessian blocks are in the sparsity pattern.
// `area` multiplies the ground stiffness at this point: the rest-surface area it stands
// for (scenes: tet_contact_areas.h, grid_contact_points.h); 1 makes k a per-point stiffness.
struct ContactPoint {
  std::vector<int> nodes;
  std::vector<double> weights;
  double area = 1.0;
};

class GroundContact {
 public:
  // Every listed node is a contact point of area 1 (k per node).
  GroundContact(GroundPlane plane, const std::vector<int>& contactNodes);
  GroundContact(GroundPlane plane, std::vector<ContactPoint> points);
  const GroundPlane& plane() const { return plane_; }
  void setPlane(const GroundPlane& plane) { plane_ = plane; }
  const std::vector<ContactPoint>& points() const { return points_; }

  Vec3 position(const VecX& x, const ContactPoint& p) const;
  // k A_p: the spring stiffness of point p.
  double stiffness(const ContactPoint& p) const { return plane_.stiffness * p.area; }
  double distance(const VecX& x, const ContactPoint& p) const { return plane_.normal.dot(position(x, p)) + plane_.offset; }
  double energy(const VecX& x) const;
  void addGradient(const VecX& x, VecX& gradient) const;  // = minus the contact force
  void addHessian(const VecX& x, BlockAssembler& H) const;
  // k A_p (w w^T kron n n^T) per contact point: the Hessian with softmin' = 1, an upper bound
  // of the Hessian at every x (0 < softmin' < 1), so the potential is majorized by its
  // tangent plus this quadratic (projective dynamics' constant global matrix).
  void addCurvatureBound(BlockAssembler& H) const;
  // Largest penetration depth max(0, -d) over contact points.
  double maxPenetration(const VecX& x) const;

  // ---- Adjoint support (ground_contact_adjoint.cpp); `scale` multiplies everything. ----
  // d/d(normal), d/d(offset) of lambda^T gradient(x).
  void addParameterAdjoint(const VecX& x, const VecX& lambda, double scale, Vec3& normalBar, double& offsetBar) const;
  // Thesis semi-implicit contact in the Newmark residual: the term
  // s = lambda^T [J+(x) q - f_c(x)] with J+ = k A_p softmin' n n^T and f_c = -k A_p softmin n,
  // q a given per-dof vector. Adds ds/dx, ds/d(normal), ds/d(offset).
  void addSemiImplicitAdjoint(const VecX& x, const VecX& q, const VecX& lambda, double scale, VecX& xBar,
                              Vec3& normalBar, double& offsetBar) const;

 private:
  // Adds k A_p s(p) (w w^T kron n n^T) for every contact point p.
  template <typename Scale>
  void addHessianScaled(BlockAssembler& H, const Scale& scaleOf) const {
    const Mat3 nnT = plane_.normal * plane_.normal.transpose();
    for (const auto& p : points_) {
      const Mat3 block = stiffness(p) * scaleOf(p) * nnT;
      for (size_t b = 0; b < p.nodes.size(); ++b)
        for (size_t a = 0; a < p.nodes.size(); ++a)
          H.addBlock(p.nodes[a], p.nodes[b], (p.weights[a] * p.weights[b]) * block);
    }
  }

  GroundPlane plane_;
  std::vector<ContactPoint> points_;
};

}  // namespace softfit
