#include "forward/mesh/triangle_closest_point.h"

#include <algorithm>

namespace softfit {

namespace {

// Closest point on segment [a, b] as barycentric weights (1 - s, s).
void closestOnSegment(const Vec3& p, const Vec3& a, const Vec3& b, double& s, Vec3& q) {
  const Vec3 ab = b - a;
  const double len2 = ab.squaredNorm();
  s = len2 > 0.0 ? std::clamp((p - a).dot(ab) / len2, 0.0, 1.0) : 0.0;
  q = a + s * ab;
}

// Vertex and edge regions produce exact zeros in the barycentric coordinates.
TriangleFeature featureOf(double b0, double b1, double b2) {
  if (b1 == 0.0 && b2 == 0.0) return TriangleFeature::Vertex0;
  if (b0 == 0.0 && b2 == 0.0) return TriangleFeature::Vertex1;
  if (b0 == 0.0 && b1 == 0.0) return TriangleFeature::Vertex2;
  if (b2 == 0.0) return TriangleFeature::Edge01;
  if (b0 == 0.0) return TriangleFeature::Edge12;
  if (b1 == 0.0) return TriangleFeature::Edge20;
  return TriangleFeature::Face;
}

TrianglePoint make(const Vec3& p, const Vec3& a, const Vec3& b, const Vec3& c, double b0, double b1, double b2) {
  TrianglePoint r;
  r.barycentric = Vec3(b0, b1, b2);
  r.point = b0 * a + b1 * b + b2 * c;
  r.distanceSquared = (p - r.point).squaredNorm();
  r.feature = featureOf(b0, b1, b2);
  return r;
}

TrianglePoint degenerate(const Vec3& p, const Vec3& a, const Vec3& b, const Vec3& c) {
  double s;
  Vec3 q;
  closestOnSegment(p, a, b, s, q);
  TrianglePoint best = make(p, a, b, c, 1.0 - s, s, 0.0);
  closestOnSegment(p, b, c, s, q);
  TrianglePoint r = make(p, a, b, c, 0.0, 1.0 - s, s);
  if (r.distanceSquared < best.distanceSquared) best = r;
  closestOnSegment(p, c, a, s, q);
  r = make(p, a, b, c, s, 0.0, 1.0 - s);
  if (r.distanceSquared < best.distanceSquared) best = r;
  return best;
}

}  // namespace

TrianglePoint closestPointOnTriangle(const Vec3& p, const Vec3& a, const Vec3& b, const Vec3& c) {
  const Vec3 ab = b - a, ac = c - a, ap = p - a;
  const double d1 = ab.dot(ap), d2 = ac.dot(ap);
  if (d1 <= 0.0 && d2 <= 0.0) return make(p, a, b, c, 1, 0, 0);  // vertex a
  const Vec3 bp = p - b;
  const double d3 = ab.dot(bp), d4 = ac.dot(bp);
  if (d3 >= 0.0 && d4 <= d3) return make(p, a, b, c, 0, 1, 0);  // vertex b
  const double vc = d1 * d4 - d3 * d2;
  if (vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0) {  // edge ab
    const double denom = d1 - d3;
    if (!(denom > 0.0)) return degenerate(p, a, b, c);
    const double v = d1 / denom;
    return make(p, a, b, c, 1.0 - v, v, 0.0);
  }
  const Vec3 cp = p - c;
  const double d5 = ab.dot(cp), d6 = ac.dot(cp);
  if (d6 >= 0.0 && d5 <= d6) return make(p, a, b, c, 0, 0, 1);  // vertex c
  const double vb = d5 * d2 - d1 * d6;
  if (vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0) {  // edge ac
    const double denom = d2 - d6;
    if (!(denom > 0.0)) return degenerate(p, a, b, c);
    const double w = d2 / denom;
    return make(p, a, b, c, 1.0 - w, 0.0, w);
  }
  const double va = d3 * d6 - d5 * d4;
  if (va <= 0.0 && (d4 - d3) >= 0.0 && (d5 - d6) >= 0.0) {  // edge bc
    const double denom = (d4 - d3) + (d5 - d6);
    if (!(denom > 0.0)) return degenerate(p, a, b, c);
    const double w = (d4 - d3) / denom;
    return make(p, a, b, c, 0.0, 1.0 - w, w);
  }
  const double sum = va + vb + vc;  // face region
  if (!(sum > 0.0)) return degenerate(p, a, b, c);
  const double v = vb / sum, w = vc / sum;
  return make(p, a, b, c, 1.0 - v - w, v, w);
}

}  // namespace softfit
