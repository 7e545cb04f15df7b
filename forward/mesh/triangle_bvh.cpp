#include "forward/mesh/triangle_bvh.h"

#include <algorithm>
#include <cmath>

#include <Eigen/Geometry>
#include <string>

#include "forward/errors.h"

namespace softfit {

namespace {

constexpr int kLeafSize = 4;

double boxDistanceSquared(const Vec3& p, const Vec3& lo, const Vec3& hi) {
  double d2 = 0.0;
  for (int k = 0; k < 3; ++k) {
    const double d = p[k] < lo[k] ? lo[k] - p[k] : (p[k] > hi[k] ? p[k] - hi[k] : 0.0);
    d2 += d * d;
  }
  return d2;
}

// Entry parameter of the ray into the box within [tMin, tMax], or +inf for a miss.
double rayBoxEntry(const Vec3& o, const Vec3& d, const Vec3& lo, const Vec3& hi, double tMin, double tMax) {
  for (int k = 0; k < 3; ++k) {
    if (d[k] == 0.0) {
      if (o[k] < lo[k] || o[k] > hi[k]) return std::numeric_limits<double>::infinity();
      continue;
    }
    double t0 = (lo[k] - o[k]) / d[k];
    double t1 = (hi[k] - o[k]) / d[k];
    if (t0 > t1) std::swap(t0, t1);
    tMin = std::max(tMin, t0);
    tMax = std::min(tMax, t1);
    if (tMin > tMax) return std::numeric_limits<double>::infinity();
  }
  return tMin;
}

}  // namespace

TriangleBvh::TriangleBvh(const VecX& positions, const TriangleMatrix& triangles) {
  if (positions.size() % 3 != 0) throw InputError("surface: positions are not a flat 3N vector");
  const int nodes = static_cast<int>(positions.size() / 3);
  const int n = static_cast<int>(triangles.rows());
  std::vector<Vec3> centroids(n);
  a_.resize(n);
  b_.resize(n);
  c_.resize(n);
  order_.resize(n);
  for (int t = 0; t < n; ++t) {
    for (int j = 0; j < 3; ++j) {
      const int v = triangles(t, j);
      if (v < 0 || v >= nodes)
        throw InputError("surface: triangle " + std::to_string(t) + " references node " + std::to_string(v) +
                         " but the body has " + std::to_string(nodes) + " nodes");
      if (!positions.segment<3>(3 * v).allFinite())
        throw InputError("surface: node " + std::to_string(v) + " has a non-finite position");
    }
    a_[t] = positions.segment<3>(3 * triangles(t, 0));
    b_[t] = positions.segment<3>(3 * triangles(t, 1));
    c_[t] = positions.segment<3>(3 * triangles(t, 2));
    centroids[t] = (a_[t] + b_[t] + c_[t]) / 3.0;
    order_[t] = t;
  }
  if (n > 0) {
    nodes_.reserve(2 * static_cast<std::size_t>(n) / kLeafSize + 2);
    build(0, n, centroids);
    // Store vertices in leaf order for locality.
    std::vector<Vec3> a(n), b(n), c(n);
    for (int s = 0; s < n; ++s) {
      a[s] = a_[order_[s]];
      b[s] = b_[order_[s]];
      c[s] = c_[order_[s]];
    }
    a_.swap(a);
    b_.swap(b);
    c_.swap(c);
  }
}

int TriangleBvh::build(int first, int count, std::vector<Vec3>& centroids) {
  const int index = static_cast<int>(nodes_.size());
  nodes_.emplace_back();
  Vec3 lo = Vec3::Constant(std::numeric_limits<double>::infinity()), hi = -lo;
  Vec3 clo = lo, chi = hi;
  for (int s = first; s < first + count; ++s) {
    const int t = order_[s];
    lo = lo.cwiseMin(a_[t]).cwiseMin(b_[t]).cwiseMin(c_[t]);
    hi = hi.cwiseMax(a_[t]).cwiseMax(b_[t]).cwiseMax(c_[t]);
    clo = clo.cwiseMin(centroids[t]);
    chi = chi.cwiseMax(centroids[t]);
  }
  nodes_[index].lo = lo;
  nodes_[index].hi = hi;
  int axis = 0;
  const Vec3 extent = chi - clo;
  if (extent[1] > extent[axis]) axis = 1;
  if (extent[2] > extent[axis]) axis = 2;
  if (count <= kLeafSize || !(extent[axis] > 0.0)) {
    nodes_[index].first = first;
    nodes_[index].count = count;
    return index;
  }
  std::sort(order_.begin() + first, order_.begin() + first + count, [&](int x, int y) {
    const double cx = centroids[x][axis], cy = centroids[y][axis];
    return cx != cy ? cx < cy : x < y;
  });
  const int half = count / 2;
  const int left = build(first, half, centroids);
  const int right = build(first + half, count - half, centroids);
  nodes_[index].left = left;
  nodes_[index].right = right;
  return index;
}

bool TriangleBvh::intersectRay(const Vec3& origin, const Vec3& direction, RayHit& hit, double tMin,
                               double tMax) const {
  hit = RayHit();
  if (nodes_.empty()) return false;
  constexpr double kTol = 1e-10;  // barycentric tolerance: no cracks along shared edges
  double best = tMax;
  int stack[128];
  int top = 0;
  if (rayBoxEntry(origin, direction, nodes_[0].lo, nodes_[0].hi, tMin, best) == std::numeric_limits<double>::infinity())
    return false;
  stack[top++] = 0;
  while (top > 0) {
    const Node& node = nodes_[stack[--top]];
    if (node.count > 0) {
      for (int s = node.first; s < node.first + node.count; ++s) {
        const Vec3 e1 = b_[s] - a_[s], e2 = c_[s] - a_[s];
        const Vec3 pvec = direction.cross(e2);
        const double det = e1.dot(pvec);
        if (!(std::abs(det) > 1e-14 * e1.norm() * e2.norm() * direction.norm())) continue;  // edge-on
        const double inv = 1.0 / det;
        const Vec3 tvec = origin - a_[s];
        const double u = tvec.dot(pvec) * inv;
        if (u < -kTol || u > 1.0 + kTol) continue;
        const Vec3 qvec = tvec.cross(e1);
        const double v = direction.dot(qvec) * inv;
        if (v < -kTol || u + v > 1.0 + kTol) continue;
        const double t = e2.dot(qvec) * inv;
        if (!(t > tMin) || t > best) continue;
        if (t == best && hit.triangle >= 0 && order_[s] > hit.triangle) continue;
        best = t;
        hit.triangle = order_[s];
        hit.t = t;
        hit.barycentric = Vec3(1.0 - u - v, u, v);
      }
      continue;
    }
    const double tl = rayBoxEntry(origin, direction, nodes_[node.left].lo, nodes_[node.left].hi, tMin, best);
    const double tr = rayBoxEntry(origin, direction, nodes_[node.right].lo, nodes_[node.right].hi, tMin, best);
    const bool hitL = tl != std::numeric_limits<double>::infinity();
    const bool hitR = tr != std::numeric_limits<double>::infinity();
    if (top + 2 > 128) throw SolveError("TriangleBvh: traversal stack overflow");
    // Push the farther child first so the nearer one is visited first.
    if (hitL && hitR) {
      if (tl <= tr) {
        stack[top++] = node.right;
        stack[top++] = node.left;
      } else {
        stack[top++] = node.left;
        stack[top++] = node.right;
      }
    } else if (hitL) {
      stack[top++] = node.left;
    } else if (hitR) {
      stack[top++] = node.right;
    }
  }
  return hit.triangle >= 0;
}

TriangleBvh::Nearest TriangleBvh::closestPoint(const Vec3& p) const {
  Nearest best;
  if (nodes_.empty()) return best;
  int stack[128];
  int top = 0;
  stack[top++] = 0;
  while (top > 0) {
    const Node& node = nodes_[stack[--top]];
    if (boxDistanceSquared(p, node.lo, node.hi) > best.distanceSquared) continue;
    if (node.count > 0) {
      for (int s = node.first; s < node.first + node.count; ++s) {
        const TrianglePoint q = closestPointOnTriangle(p, a_[s], b_[s], c_[s]);
        if (q.distanceSquared < best.distanceSquared ||
            (q.distanceSquared == best.distanceSquared && order_[s] < best.triangle)) {
          best.triangle = order_[s];
          best.point = q.point;
          best.barycentric = q.barycentric;
          best.distanceSquared = q.distanceSquared;
          best.feature = q.feature;
        }
      }
      continue;
    }
    const double dl = boxDistanceSquared(p, nodes_[node.left].lo, nodes_[node.left].hi);
    const double dr = boxDistanceSquared(p, nodes_[node.right].lo, nodes_[node.right].hi);
    if (top + 2 > 128) throw SolveError("TriangleBvh: traversal stack overflow");
    if (dl <= dr) {
      stack[top++] = node.right;
      stack[top++] = node.left;
    } else {
      stack[top++] = node.left;
      stack[top++] = node.right;
    }
  }
  return best;
}

}  // namespace softfit
