#include "reconstruct/object_segmentation.h"

#include <open3d/geometry/PointCloud.h>

#include <limits>

namespace softfit {

FrameSegmentation segmentObject(const PointMatrix& points, const std::vector<double>& sigmas,
                                const std::vector<bool>& staticBackground, const Vec3& groundNormal,
                                double groundOffset, const Workspace& workspace, const Vec3& seed,
                                const SegmentationOptions& options) {
  const int count = static_cast<int>(points.rows());
  FrameSegmentation out;
  out.labels.assign(count, PointLabel::OtherComponent);
  std::vector<int> candidates;
  for (int i = 0; i < count; ++i) {
    const Vec3 p = points.row(i).transpose();
    const double h = groundNormal.dot(p) + groundOffset;
    const double band = options.groundSigmas * sigmas[i];
    Vec3 across = p - workspace.centre;
    across -= across.dot(groundNormal) * groundNormal;
    if (h < -band) out.labels[i] = PointLabel::BelowGround;
    else if (h <= band + options.groundMargin) out.labels[i] = PointLabel::Ground;
    else if (!staticBackground.empty() && staticBackground[i]) out.labels[i] = PointLabel::StaticBackground;
    else if (across.norm() > workspace.radius || h > workspace.height) out.labels[i] = PointLabel::OutsideWorkspace;
    else candidates.push_back(i);
  }
  if (static_cast<int>(candidates.size()) < options.clusterMinPoints) {
    for (int i : candidates) out.labels[i] = PointLabel::Outlier;
    return out;
  }

  open3d::geometry::PointCloud cloud;
  cloud.points_.reserve(candidates.size());
  for (int i : candidates) cloud.points_.push_back(points.row(i).transpose());
  std::vector<std::size_t> kept;
  if (static_cast<int>(candidates.size()) > options.outlierNeighbours) {
    kept = std::get<1>(cloud.RemoveStatisticalOutliers(options.outlierNeighbours, options.outlierStd));
  } else {
    for (std::size_t k = 0; k < candidates.size(); ++k) kept.push_back(k);
  }
  std::vector<bool> isKept(candidates.size(), false);
  for (std::size_t k : kept) isKept[k] = true;
  for (std::size_t k = 0; k < candidates.size(); ++k)
    if (!isKept[k]) out.labels[candidates[k]] = PointLabel::Outlier;

  open3d::geometry::PointCloud inliers;
  std::vector<int> inlierIndex;
  for (std::size_t k = 0; k < candidates.size(); ++k)
    if (isKept[k]) {
      inliers.points_.push_back(cloud.points_[k]);
      inlierIndex.push_back(candidates[k]);
    }
  if (inliers.points_.empty()) return out;
  const std::vector<int> cluster = inliers.ClusterDBSCAN(options.clusterRadius, options.clusterMinPoints, false);
  int chosen = -1;
  double nearest = std::numeric_limits<double>::infinity();
  for (std::size_t k = 0; k < cluster.size(); ++k) {
    if (cluster[k] < 0) continue;
    const double d = (inliers.points_[k] - seed).norm();
    if (d < nearest || (d == nearest && cluster[k] < chosen)) {
      nearest = d;
      chosen = cluster[k];
    }
  }
  if (chosen < 0) return out;
  Vec3 sum = Vec3::Zero();
  for (std::size_t k = 0; k < cluster.size(); ++k) {
    if (cluster[k] != chosen) continue;
    out.labels[inlierIndex[k]] = PointLabel::Object;
    sum += inliers.points_[k];
    ++out.objectCount;
  }
  out.objectCentroid = sum / out.objectCount;
  return out;
}

}  // namespace softfit
