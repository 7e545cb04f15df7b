#include "grid/quadrature_compression.h"

#include <Eigen/LU>
#include <limits>

namespace softfit {

namespace {

using BasisValues = Eigen::Matrix<double, kCompressionBasisSize, 1>;

BasisValues basis(const Vec3& xi) {
  const Vec3 u = xi.array() - 0.5;
  BasisValues b;
  b << 1.0, u[0], u[1], u[2], u[0] * u[1], u[1] * u[2], u[2] * u[0], u[0] * u[1] * u[2], u[0] * u[0], u[1] * u[1],
      u[2] * u[2];
  return b;
}

}  // namespace

std::vector<LocalQuadraturePoint> compressQuadrature(const std::vector<LocalQuadraturePoint>& points) {
  constexpr int m = kCompressionBasisSize;
  if (static_cast<int>(points.size()) <= m) return points;
  std::vector<LocalQuadraturePoint> kept;
  kept.reserve(points.size());
  for (const auto& p : points)
    if (p.weight > 0.0) kept.push_back(p);
  using Block = Eigen::Matrix<double, m, m + 1>;
  // Each round takes the first m + 1 points, finds c != 0 with sum_i c_i f(x_i) = 0 for
  // all basis functions f, and moves the weights along -c until one reaches zero: the
  // moments stay fixed, the weights stay non-negative, one point drops out.
  while (static_cast<int>(kept.size()) > m) {
    Block A;
    for (int i = 0; i <= m; ++i) A.col(i) = basis(kept[i].position);
    // A has more columns than rows, so its kernel is never trivial.
    const Eigen::FullPivLU<Block> lu(A);
    Eigen::Matrix<double, m + 1, 1> c = lu.kernel().col(0);
    if (c.maxCoeff() <= 0.0) c = -c;
    int drop = -1;
    double alpha = std::numeric_limits<double>::infinity();
    for (int i = 0; i <= m; ++i)
      if (c[i] > 0.0 && kept[i].weight / c[i] < alpha) {
        alpha = kept[i].weight / c[i];
        drop = i;
      }
    for (int i = 0; i <= m; ++i) kept[i].weight = std::max(0.0, kept[i].weight - alpha * c[i]);
    kept[drop].weight = 0.0;
    // Remove the zero weights among the first m + 1 (swap with the last, deterministic).
    for (int i = m; i >= 0; --i) {
      if (kept[i].weight > 0.0) continue;
      kept[i] = kept.back();
      kept.pop_back();
    }
  }
  return kept;
}

}  // namespace softfit
