#include "grid/point_triangle_distance.h"

#include <algorithm>

namespace softfit {

namespace {

ClosestTrianglePoint make(const Vec3& p, const Vec3& q, TriangleFeature feature) {
  return {q, feature, (p - q).squaredNorm()};
}

// Closest point on segment [a, b]; the feature is the edge or an end vertex.
ClosestTrianglePoint closestOnSegment(const Vec3& p, const Vec3& a, const Vec3& b, TriangleFeature atA,
                                      TriangleFeature atB, TriangleFeature edge) {
  const Vec3 ab = b - a;
  const double length2 = ab.squaredNorm();
  const double t = length2 > 0.0 ? (p - a).dot(ab) / length2 : 0.0;
  if (t <= 0.0) return make(p, a, atA);
  if (t >= 1.0) return make(p, b, atB);
  return make(p, a + t * ab, edge);
}

}  // namespace

ClosestTrianglePoint closestPointOnTriangle(const Vec3& p, const Vec3& a, const Vec3& b, const Vec3& c) {
  using F = TriangleFeature;
  const Vec3 ab = b - a, ac = c - a, ap = p - a;
  const double d1 = ab.dot(ap), d2 = ac.dot(ap);
  if (d1 <= 0.0 && d2 <= 0.0) return make(p, a, F::Vertex0);
  const Vec3 bp = p - b;
  const double d3 = ab.dot(bp), d4 = ac.dot(bp);
  if (d3 >= 0.0 && d4 <= d3) return make(p, b, F::Vertex1);
  const double vc = d1 * d4 - d3 * d2;
  if (vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0) return make(p, a + (d1 / (d1 - d3)) * ab, F::Edge01);
  const Vec3 cp = p - c;
  const double d5 = ab.dot(cp), d6 = ac.dot(cp);
  if (d6 >= 0.0 && d5 <= d6) return make(p, c, F::Vertex2);
  const double vb = d5 * d2 - d1 * d6;
  if (vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0) return make(p, a + (d2 / (d2 - d6)) * ac, F::Edge20);
  const double va = d3 * d6 - d5 * d4;
  if (va <= 0.0 && d4 - d3 >= 0.0 && d5 - d6 >= 0.0)
    return make(p, b + ((d4 - d3) / ((d4 - d3) + (d5 - d6))) * (c - b), F::Edge12);
  const double sum = va + vb + vc;
  if (!(sum > 0.0)) {
    // Degenerate triangle: the closest point lies on one of its edges.
    ClosestTrianglePoint best = closestOnSegment(p, a, b, F::Vertex0, F::Vertex1, F::Edge01);
    for (const auto& candidate : {closestOnSegment(p, b, c, F::Vertex1, F::Vertex2, F::Edge12),
                                  closestOnSegment(p, c, a, F::Vertex2, F::Vertex0, F::Edge20)})
      if (candidate.squaredDistance < best.squaredDistance) best = candidate;
    return best;
  }
  const double v = vb / sum, w = vc / sum;
  return make(p, a + v * ab + w * ac, F::Face);
}

}  // namespace softfit
