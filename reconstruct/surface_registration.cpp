#include "reconstruct/surface_registration.h"

#include <open3d/geometry/KDTreeFlann.h>

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

namespace softfit {

// Open3D's tree refers to the matrix it was built from: it is built from vertices_,
// which lives as long as the tree.
struct SurfaceRegistration::Tree {
  explicit Tree(const Eigen::MatrixXd& vertices) : kd(vertices) {}
  open3d::geometry::KDTreeFlann kd;
};

SurfaceRegistration::SurfaceRegistration(const TriangleSurface& rest) {
  if (rest.triangleCount() == 0 || rest.vertexCount() == 0)
    throw std::invalid_argument("SurfaceRegistration: the rest surface has no triangles");
  vertices_ = rest.vertices.transpose();
  normals_ = MatX::Zero(3, rest.vertexCount());
  for (int t = 0; t < rest.triangleCount(); ++t) {
    const Vec3 a = vertices_.col(rest.triangles(t, 0)), b = vertices_.col(rest.triangles(t, 1)),
               c = vertices_.col(rest.triangles(t, 2));
    const Vec3 areaNormal = (b - a).cross(c - a);  // 2 x area x unit normal: area weighting
    for (int k = 0; k < 3; ++k) normals_.col(rest.triangles(t, k)) += areaNormal;
  }
  for (Eigen::Index i = 0; i < normals_.cols(); ++i) {
    const double n = normals_.col(i).norm();
    if (n > 0.0) normals_.col(i) /= n;
  }
  tree_ = std::make_unique<Tree>(vertices_);
}

SurfaceRegistration::~SurfaceRegistration() = default;

SurfaceRegistrationResult SurfaceRegistration::align(const PointMatrix& points, const RigidPose& start,
                                                     const SurfaceRegistrationOptions& options) const {
  SurfaceRegistrationResult result;
  result.pose = start;
  const int n = static_cast<int>(points.rows());
  if (n < 6) return result;
  const int step = std::max(1, (n + options.maxPoints - 1) / std::max(1, options.maxPoints));
  std::vector<int> used;
  for (int i = 0; i < n; i += step) used.push_back(i);

  // The inverse map x = Q y + s (world to rest) is what the steps move.
  Mat3 q = start.rotation.transpose();
  Vec3 s = -q * start.translation;
  std::vector<int> index(1);
  std::vector<double> distance2(1);
  const std::size_t m = used.size();
  std::vector<Vec3> x(m), normal(m);
  std::vector<double> planeDistance(m), pairDistance(m);
  for (int it = 0; it < options.iterations; ++it) {
    for (std::size_t j = 0; j < m; ++j) {
      x[j] = q * points.row(used[j]).transpose() + s;
      tree_->kd.SearchKNN(x[j], 1, index, distance2);
      normal[j] = normals_.col(index[0]);
      planeDistance[j] = normal[j].dot(x[j] - vertices_.col(index[0]));
      pairDistance[j] = std::sqrt(distance2[0]);
    }
    std::vector<double> sorted = pairDistance;
    std::nth_element(sorted.begin(), sorted.begin() + m / 2, sorted.end());
    const double limit = std::max(options.rejectFactor * sorted[m / 2], options.minRejectDistance);
    // Gauss-Newton on r_j = n_j . (D (x_j - c) + c + e - z_j), D = exp([w]) ~ I + [w]:
    // dr/dw = (x_j - c) x n_j, dr/de = n_j, about the kept points' centroid c.
    Vec3 c = Vec3::Zero();
    int kept = 0;
    for (std::size_t j = 0; j < m; ++j)
      if (pairDistance[j] <= limit) {
        c += x[j];
        ++kept;
      }
    if (kept < 6) break;
    c /= kept;
    Eigen::Matrix<double, 6, 6> a = Eigen::Matrix<double, 6, 6>::Zero();
    Eigen::Matrix<double, 6, 1> b = Eigen::Matrix<double, 6, 1>::Zero();
    double sum2 = 0.0;
    for (std::size_t j = 0; j < m; ++j) {
      if (pairDistance[j] > limit) continue;
      Eigen::Matrix<double, 6, 1> row;
      row << (x[j] - c).cross(normal[j]), normal[j];
      a += row * row.transpose();
      b += row * planeDistance[j];
      sum2 += planeDistance[j] * planeDistance[j];
    }
    result.rms = std::sqrt(sum2 / kept);
    result.pointsUsed = kept;
    // A flat or symmetric view leaves directions unconstrained: a small ridge keeps them still.
    const double ridge = 1e-9 * std::max(1.0, a.trace());
    a.diagonal().array() += ridge;
    const Eigen::Matrix<double, 6, 1> delta = -a.ldlt().solve(b);
    const Vec3 w = delta.head<3>(), e = delta.tail<3>();
    const Mat3 d = w.norm() > 0.0 ? Mat3(Eigen::AngleAxisd(w.norm(), w / w.norm())) : Mat3::Identity();
    q = d * q;
    s = d * (s - c) + c + e;
    if (e.norm() < 1e-9 && w.norm() < 1e-9) break;
  }
  result.pose.rotation = q.transpose();
  result.pose.translation = -result.pose.rotation * s;
  return result;
}

}  // namespace softfit
