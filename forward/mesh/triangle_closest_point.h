#pragma once
// Closest point on a triangle (Ericson, Real-Time Collision Detection, 5.1.5), shared by
// the mesh SDF (grid/) and the point-to-surface costs (observations/).
#include "forward/types.h"

namespace softfit {

// The part of the triangle the closest point lies on; it selects the pseudonormal of
// an inside/outside test (grid/mesh_sdf.h).
enum class TriangleFeature { Vertex0, Vertex1, Vertex2, Edge01, Edge12, Edge20, Face };

struct TrianglePoint {
  Vec3 point;        // closest point q = b0 a + b1 b + b2 c
  Vec3 barycentric;  // (b0, b1, b2), non-negative, summing to 1
  double distanceSquared = 0.0;
  TriangleFeature feature = TriangleFeature::Face;  // from the exact zeros of `barycentric`
};

// Closest point of triangle (a, b, c) to p. Degenerate (zero-area) triangles are
// handled as their closest edge segment.
TrianglePoint closestPointOnTriangle(const Vec3& p, const Vec3& a, const Vec3& b, const Vec3& c);

}  // namespace softfit
