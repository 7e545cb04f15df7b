#pragma once
// Closest point on a triangle to a point, with the feature (vertex, edge or face
// interior) it lies on; the feature selects the pseudonormal for the inside test.
#include "forward/types.h"

namespace softfit {

enum class TriangleFeature { Vertex0, Vertex1, Vertex2, Edge01, Edge12, Edge20, Face };

struct ClosestTrianglePoint {
  Vec3 point;
  TriangleFeature feature = TriangleFeature::Face;
  double squaredDistance = 0.0;
};

// Exact (up to round-off) closest point by Voronoi-region classification (Ericson,
// Real-Time Collision Detection, 5.1.5). Degenerate (zero-area) triangles fall back to
// their edges.
ClosestTrianglePoint closestPointOnTriangle(const Vec3& p, const Vec3& a, const Vec3& b, const Vec3& c);

}  // namespace softfit
