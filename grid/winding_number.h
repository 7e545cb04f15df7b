#pragma once
// Generalized winding number of a triangle surface (Jacobson, Kavan & Sorkine-Hornung
// 2013): w(p) = sum over triangles of the signed solid angle (Van Oosterom & Strackee
// 1983) / 4 pi. 1 inside and 0 outside a closed, outward-oriented surface; for surfaces
// with holes, non-manifold edges or duplicated sheets it degrades gracefully (about 1/2
// at a hole), so {w >= 1/2} is a robust inside test. The fast evaluation sums far
// clusters of a bounding-sphere tree as dipoles (Barnes-Hut); both evaluations add their
// terms in a fixed order (deterministic).
#include <vector>

#include "forward/mesh/triangle_surface.h"

namespace softfit {

// Signed solid angle of triangle (a, b, c) seen from p, in (-2 pi, 2 pi): positive when
// p lies behind the triangle (on the side opposite its normal (b - a) x (c - a)).
double triangleSolidAngle(const Vec3& p, const Vec3& a, const Vec3& b, const Vec3& c);

class WindingNumber {
 public:
  // `accuracy` (beta) > 1: a cluster with bounding-sphere radius r and centre at
  // distance > beta r from p is summed as a dipole (relative error O(1/beta^2) of its
  // solid angle); infinity sums every triangle exactly.
  explicit WindingNumber(const TriangleSurface& surface, double accuracy = 2.0);

  double value(const Vec3& p) const;  // clustered (Barnes-Hut) sum
  double exact(const Vec3& p) const;  // direct sum over all triangles, in input order

  // w(p) >= 1/2, decided by the clustered sum unless it lies within kExactBand of 1/2,
  // then by the exact sum (the clustered sum's error at beta = 2 is a few percent:
  // up to 0.08 on the thesis' dragon, far below the band).
  bool inside(const Vec3& p) const;
  static constexpr double kExactBand = 0.25;

 private:
  struct Node {
    Vec3 center = Vec3::Zero();  // area-weighted centroid of the cluster
    Vec3 areaNormal = Vec3::Zero();  // sum of the triangles' area vectors (b - a) x (c - a) / 2
    double radius = 0.0;  // bounding sphere about `center`
    int left = -1, right = -1;  // children; leaves have left < 0
    int first = 0, count = 0;  // range in order_
  };
  int build(int first, int count);

  double accuracy_;
  std::vector<Vec3> a_, b_, c_;  // triangle corners, input order
  std::vector<int> order_;       // triangle indices, grouped by leaf
  std::vector<Node> nodes_;
};

}  // namespace softfit
