#include "grid/triangle_bvh.h"

#include <algorithm>
#include <limits>

namespace softfit {

namespace {
constexpr int kLeafSize = 4;

double squaredBoxDistance(const AxisBox& b, const Vec3& p) {
  return (b.min - p).cwiseMax(p - b.max).cwiseMax(0.0).squaredNorm();
}
}  // namespace

TriangleBvh::TriangleBvh(const TriangleSurface& surface) : surface_(surface) {
  const int n = surface_.triangleCount();
  order_.resize(n);
  std::vector<Vec3> centroids(n);
  for (int t = 0; t < n; ++t) {
    order_[t] = t;
    centroids[t] = (vertex(t, 0) + vertex(t, 1) + vertex(t, 2)) / 3.0;
  }
  nodes_.reserve(2 * static_cast<size_t>(n) / kLeafSize + 2);
  if (n > 0) build(0, n, centroids);
}

int TriangleBvh::build(int begin, int end, std::vector<Vec3>& centroids) {
  const int index = static_cast<int>(nodes_.size());
  nodes_.push_back(Node{});
  AxisBox box{vertex(order_[begin], 0), vertex(order_[begin], 0)};
  AxisBox centroidBox{centroids[order_[begin]], centroids[order_[begin]]};
  for (int i = begin; i < end; ++i) {
    for (int c = 0; c < 3; ++c) box = box.merged({vertex(order_[i], c), vertex(order_[i], c)});
    centroidBox = centroidBox.merged({centroids[order_[i]], centroids[order_[i]]});
  }
  nodes_[index].box = box;
  if (end - begin <= kLeafSize) {
    nodes_[index].first = begin;
    nodes_[index].count = end - begin;
    return index;
  }
  int axis = 0;
  (centroidBox.max - centroidBox.min).maxCoeff(&axis);
  const int middle = begin + (end - begin) / 2;
  std::nth_element(order_.begin() + begin, order_.begin() + middle, order_.begin() + end, [&](int a, int b) {
    if (centroids[a][axis] != centroids[b][axis]) return centroids[a][axis] < centroids[b][axis];
    return a < b;
  });
  const int left = build(begin, middle, centroids);
  const int right = build(middle, end, centroids);
  nodes_[index].first = left;
  nodes_[index].right = right;
  return index;
}

NearestTriangle TriangleBvh::nearest(const Vec3& p) const {
  NearestTriangle best;
  best.closest.squaredDistance = std::numeric_limits<double>::infinity();
  if (nodes_.empty()) return best;
  // Depth-first, nearer child first, pruning boxes farther than the best so far.
  std::vector<int> stack;
  stack.reserve(64);
  stack.push_back(0);
  while (!stack.empty()) {
    const Node& node = nodes_[stack.back()];
    stack.pop_back();
    if (squaredBoxDistance(node.box, p) > best.closest.squaredDistance) continue;
    if (node.count > 0) {
      for (int i = node.first; i < node.first + node.count; ++i) {
        const int t = order_[i];
        const ClosestTrianglePoint c = closestPointOnTriangle(p, vertex(t, 0), vertex(t, 1), vertex(t, 2));
        if (c.squaredDistance < best.closest.squaredDistance ||
            (c.squaredDistance == best.closest.squaredDistance && t < best.triangle)) {
          best.triangle = t;
          best.closest = c;
        }
      }
      continue;
    }
    const double dl = squaredBoxDistance(nodes_[node.first].box, p);
    const double dr = squaredBoxDistance(nodes_[node.right].box, p);
    if (dl <= dr) {
      stack.push_back(node.right);
      stack.push_back(node.first);
    } else {
      stack.push_back(node.first);
      stack.push_back(node.right);
    }
  }
  return best;
}

}  // namespace softfit
