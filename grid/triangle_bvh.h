#pragma once
// Bounding-volume hierarchy (axis-aligned boxes, median splits) over a triangle set for
// nearest-triangle queries.
#include <vector>

#include "forward/mesh/triangle_surface.h"
#include "grid/point_triangle_distance.h"
#include "grid/signed_distance_field.h"

namespace softfit {

struct NearestTriangle {
  int triangle = -1;
  ClosestTrianglePoint closest;
};

class TriangleBvh {
 public:
  explicit TriangleBvh(const TriangleSurface& surface);  // keeps a copy of the geometry
  // The triangle closest to p (ties: the lowest index reached first; deterministic).
  NearestTriangle nearest(const Vec3& p) const;
  const TriangleSurface& surface() const { return surface_; }

 private:
  struct Node {
    AxisBox box;
    int first = 0;  // leaves: range in order_; inner nodes: index of the left child
    int count = 0;  // > 0 for leaves
    int right = -1;
  };
  int build(int begin, int end, std::vector<Vec3>& centroids);
  Vec3 vertex(int t, int c) const { return surface_.vertices.row(surface_.triangles(t, c)).transpose(); }

  TriangleSurface surface_;
  std::vector<int> order_;
  std::vector<Node> nodes_;
};

}  // namespace softfit
