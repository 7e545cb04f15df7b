#include "grid/winding_number.h"

#include <Eigen/Geometry>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace softfit {

namespace {

constexpr int kLeafSize = 8;
constexpr double kFourPi = 4.0 * M_PI;

}  // namespace

double triangleSolidAngle(const Vec3& p, const Vec3& a, const Vec3& b, const Vec3& c) {
  const Vec3 u = a - p, v = b - p, w = c - p;
  const double lu = u.norm(), lv = v.norm(), lw = w.norm();
  const double numerator = u.dot(v.cross(w));
  const double denominator = lu * lv * lw + u.dot(v) * lw + v.dot(w) * lu + w.dot(u) * lv;
  return 2.0 * std::atan2(numerator, denominator);
}

WindingNumber::WindingNumber(const TriangleSurface& surface, double accuracy) : accuracy_(accuracy) {
  if (!(accuracy > 1.0)) throw std::invalid_argument("WindingNumber: accuracy must be > 1");
  const int n = surface.triangleCount();
  a_.resize(n);
  b_.resize(n);
  c_.resize(n);
  for (int t = 0; t < n; ++t) {
    a_[t] = surface.vertices.row(surface.triangles(t, 0)).transpose();
    b_[t] = surface.vertices.row(surface.triangles(t, 1)).transpose();
    c_[t] = surface.vertices.row(surface.triangles(t, 2)).transpose();
  }
  order_.resize(n);
  for (int t = 0; t < n; ++t) order_[t] = t;
  if (n > 0) {
    nodes_.reserve(2 * static_cast<size_t>(n / kLeafSize + 1));
    build(0, n);
  }
}

int WindingNumber::build(int first, int count) {
  const int index = static_cast<int>(nodes_.size());
  nodes_.emplace_back();
  Node node;
  node.first = first;
  node.count = count;
  double area = 0.0;
  Vec3 weighted = Vec3::Zero(), mean = Vec3::Zero(), lo = Vec3::Constant(1e300), hi = Vec3::Constant(-1e300);
  for (int i = first; i < first + count; ++i) {
    const int t = order_[i];
    const Vec3 n = 0.5 * (b_[t] - a_[t]).cross(c_[t] - a_[t]);
    const Vec3 centroid = (a_[t] + b_[t] + c_[t]) / 3.0;
    node.areaNormal += n;
    area += n.norm();
    weighted += n.norm() * centroid;
    mean += centroid;
    lo = lo.cwiseMin(centroid);
    hi = hi.cwiseMax(centroid);
  }
  node.center = area > 0.0 ? Vec3(weighted / area) : Vec3(mean / count);
  for (int i = first; i < first + count; ++i) {
    const int t = order_[i];
    node.radius = std::max({node.radius, (a_[t] - node.center).norm(), (b_[t] - node.center).norm(),
                            (c_[t] - node.center).norm()});
  }
  if (count > kLeafSize) {
    int axis = 0;
    (hi - lo).maxCoeff(&axis);
    const auto key = [&](int t) { return (a_[t][axis] + b_[t][axis] + c_[t][axis]) / 3.0; };
    const int half = count / 2;
    // Ties broken by triangle index: the tree does not depend on the sort implementation.
    std::nth_element(order_.begin() + first, order_.begin() + first + half, order_.begin() + first + count,
                     [&](int s, int t) { return key(s) < key(t) || (key(s) == key(t) && s < t); });
    node.left = build(first, half);
    node.right = build(first + half, count - half);
  }
  nodes_[index] = node;
  return index;
}

double WindingNumber::exact(const Vec3& p) const {
  double total = 0.0;
  for (size_t t = 0; t < a_.size(); ++t) total += triangleSolidAngle(p, a_[t], b_[t], c_[t]);
  return total / kFourPi;
}

bool WindingNumber::inside(const Vec3& p) const {
  const double w = value(p);
  if (std::abs(w - 0.5) >= kExactBand) return w >= 0.5;
  return exact(p) >= 0.5;
}

double WindingNumber::value(const Vec3& p) const {
  if (nodes_.empty()) return 0.0;
  double total = 0.0;
  int stack[128];
  int top = 0;
  stack[top++] = 0;
  while (top > 0) {
    const Node& node = nodes_[stack[--top]];
    const Vec3 r = node.center - p;
    const double distance = r.norm();
    if (distance > accuracy_ * node.radius) {
      total += node.areaNormal.dot(r) / (distance * distance * distance);  // dipole
    } else if (node.left < 0) {
      for (int i = node.first; i < node.first + node.count; ++i) {
        const int t = order_[i];
        total += triangleSolidAngle(p, a_[t], b_[t], c_[t]);
      }
    } else {
      stack[top++] = node.right;
      stack[top++] = node.left;
    }
  }
  return total / kFourPi;
}

}  // namespace softfit
