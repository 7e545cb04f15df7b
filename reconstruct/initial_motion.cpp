#include "reconstruct/initial_motion.h"

#include <open3d/geometry/KDTreeFlann.h>
#include <open3d/geometry/PointCloud.h>

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>

namespace softfit {

namespace {

Vec3 rotationVector(const Mat3& r) {
  const Eigen::AngleAxisd aa(r);
  return aa.angle() * aa.axis();
}

Vec3 centroidOf(const PointMatrix& p) { return p.colwise().mean().transpose(); }

}  // namespace

RigidTransform registerRigid(const PointMatrix& source, const PointMatrix& target, const InitialMotionOptions& options,
                             double* rms) {
  RigidTransform t;
  if (rms) *rms = 0.0;
  if (source.rows() < 3 || target.rows() < 3) return t;
  open3d::geometry::PointCloud cloud;
  cloud.points_.reserve(target.rows());
  for (Eigen::Index i = 0; i < target.rows(); ++i) cloud.points_.push_back(target.row(i).transpose());
  const open3d::geometry::KDTreeFlann tree(cloud);
  const int n = static_cast<int>(source.rows());
  const int step = std::max(1, (n + options.maxSourcePoints - 1) / std::max(1, options.maxSourcePoints));
  std::vector<int> used;
  for (int i = 0; i < n; i += step) used.push_back(i);

  t.translation = centroidOf(target) - centroidOf(source);
  std::vector<int> index(1);
  std::vector<double> distance2(1);
  std::vector<double> d(used.size());
  std::vector<Vec3> moved(used.size()), matched(used.size());
  for (int it = 0; it < options.iterations; ++it) {
    for (std::size_t j = 0; j < used.size(); ++j) {
      moved[j] = t.rotation * source.row(used[j]).transpose() + t.translation;
      tree.SearchKNN(moved[j], 1, index, distance2);
      matched[j] = cloud.points_[index[0]];
      d[j] = std::sqrt(distance2[0]);
    }
    std::vector<double> sorted = d;
    std::nth_element(sorted.begin(), sorted.begin() + sorted.size() / 2, sorted.end());
    const double limit = std::max(options.rejectFactor * sorted[sorted.size() / 2], options.minRejectDistance);
    std::vector<int> kept;
    for (std::size_t j = 0; j < used.size(); ++j)
      if (d[j] <= limit) kept.push_back(static_cast<int>(j));
    if (kept.size() < 3) break;
    Eigen::Matrix3Xd a(3, kept.size()), b(3, kept.size());
    double sum2 = 0.0;
    for (std::size_t k = 0; k < kept.size(); ++k) {
      a.col(k) = moved[kept[k]];
      b.col(k) = matched[kept[k]];
      sum2 += d[kept[k]] * d[kept[k]];
    }
    if (rms) *rms = std::sqrt(sum2 / kept.size());
    const Eigen::Matrix4d step4 = Eigen::umeyama(a, b, false);
    const Mat3 dr = step4.topLeftCorner<3, 3>();
    const Vec3 dt = step4.topRightCorner<3, 1>();
    t.rotation = dr * t.rotation;
    t.translation = dr * t.translation + dt;
    if (dt.norm() < 1e-9 && rotationVector(dr).norm() < 1e-9) break;
  }
  return t;
}

InitialMotionEstimate estimateInitialMotion(const PointCloud& rest, const std::vector<PointCloud>& frames, double dt,
                                    const Vec3& gravity, const InitialMotionOptions& options) {
  InitialMotionEstimate m;
  if (options.frames <= 0 || rest.size() < 3 || !(dt > 0.0)) return m;
  const Vec3 c0 = centroidOf(rest.points);
  // Least squares over the registered frames: sum_k |c_k - c_0 - g t_k^2 / 2 - v t_k|^2
  // and sum_k |theta_k - omega t_k|^2 (both through the origin in t).
  Vec3 vSum = Vec3::Zero(), wSum = Vec3::Zero();
  double t2Sum = 0.0, rms2 = 0.0;
  const int last = std::min<int>(options.frames, static_cast<int>(frames.size()) - 1);
  for (int k = 1; k <= last; ++k) {
    if (frames[k].size() < 3) continue;
    double rms = 0.0;
    const RigidTransform r = registerRigid(rest.points, frames[k].points, options, &rms);
    const double t = k * dt;
    const Vec3 ck = r.rotation * c0 + r.translation;
    vSum += t * (ck - c0 - 0.5 * gravity * t * t);
    wSum += t * rotationVector(r.rotation);
    t2Sum += t * t;
    rms2 += rms * rms;
    ++m.framesUsed;
  }
  if (m.framesUsed == 0) return m;
  m.estimated = true;
  m.velocity = vSum / t2Sum;
  m.angularVelocity = options.angular ? Vec3(wSum / t2Sum) : Vec3::Zero();
  m.rmsResidual = std::sqrt(rms2 / m.framesUsed);
  return m;
}

}  // namespace softfit
