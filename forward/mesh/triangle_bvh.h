#pragma once
// Bounding-volume hierarchy over the triangles of a (deformed) surface, for ray casting
// (virtual depth cameras) and closest-point queries (point-to-surface cost). Built from
// scratch for each set of positions (a few milliseconds for 10^4 triangles); the build
// and both queries are deterministic, with ties broken towards the lower triangle index.
#include <limits>
#include <vector>

#include "forward/mesh/triangle_closest_point.h"

namespace softfit {

class TriangleBvh {
 public:
  struct RayHit {
    int triangle = -1;  // index into the triangle matrix, -1 for a miss
    double t = std::numeric_limits<double>::infinity();  // hit = origin + t * direction
    Vec3 barycentric = Vec3::Zero();
  };
  struct Nearest {
    int triangle = -1;  // -1 only for an empty surface
    Vec3 point = Vec3::Zero();
    Vec3 barycentric = Vec3::Zero();
    double distanceSquared = std::numeric_limits<double>::infinity();
    TriangleFeature feature = TriangleFeature::Face;
  };

  TriangleBvh() = default;
  // `positions` is a flat 3N vector, `triangles` index its nodes. Throws InputError when
  // an index is out of range or a referenced position is not finite.
  TriangleBvh(const VecX& positions, const TriangleMatrix& triangles);

  int triangleCount() const { return static_cast<int>(order_.size()); }

  // Nearest intersection with t in (tMin, tMax]; triangles are two-sided. Returns false
  // (and leaves `hit` a miss) when nothing is hit.
  bool intersectRay(const Vec3& origin, const Vec3& direction, RayHit& hit, double tMin = 0.0,
                    double tMax = std::numeric_limits<double>::infinity()) const;

  // Closest point of the surface to p.
  Nearest closestPoint(const Vec3& p) const;

 private:
  struct Node {
    Vec3 lo, hi;
    int left = -1, right = -1;  // children (interior nodes)
    int first = 0, count = 0;   // range in order_ (leaves: count > 0)
  };
  int build(int first, int count, std::vector<Vec3>& centroids);

  std::vector<Node> nodes_;
  std::vector<int> order_;       // original triangle index per leaf slot
  std::vector<Vec3> a_, b_, c_;  // vertices per leaf slot
};

}  // namespace softfit
