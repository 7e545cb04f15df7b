#include "reconstruct/unseen_fill_trim.h"

#include <open3d/geometry/KDTreeFlann.h>
#include <open3d/geometry/PointCloud.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "forward/errors.h"
#include "grid/winding_number.h"
#include "reconstruct/sdf_volume_cleanup.h"

namespace softfit {

namespace {

constexpr double kWindingAccuracy = 3.0;  // beta: solid-angle error O(1/beta^2) per far cluster

bool anyPointWithin(const open3d::geometry::KDTreeFlann& tree, const Vec3& x, double radius) {
  std::vector<int> index;
  std::vector<double> distance2;
  return tree.SearchHybrid(x, radius, 1, index, distance2) > 0;
}

int countInside(const SdfVolume& volume) {
  int n = 0;
  for (double v : volume.values) n += v < 0.0;
  return n;
}

}  // namespace

UnseenFillResult trimUnseenFill(SdfVolume& volume, const TriangleSurface& surface, const PointCloud& seenPoints,
                                const std::vector<char>& trimmable, const UnseenFillOptions& options) {
  const std::string context = "unseen fill trim: ";
  if (surface.triangleCount() == 0) throw InputError(context + "empty surface");
  if (seenPoints.empty()) throw InputError(context + "no seen points");
  if (!trimmable.empty() && static_cast<long long>(trimmable.size()) != volume.sampleCount())
    throw InputError(context + "trimmable mask has " + std::to_string(trimmable.size()) + " entries for " +
                     std::to_string(volume.sampleCount()) + " samples");
  if (!(options.seenDistance >= 0.0) || !(options.groundBand >= 0.0) || !(options.floorMargin >= 0.0))
    throw InputError(context + "seen distance, ground band and floor margin must be >= 0");
  const double h = volume.spacing[0];
  const double radius = options.seenDistance > 0.0 ? options.seenDistance : 1.5 * h;

  open3d::geometry::PointCloud cloud;
  cloud.points_.reserve(seenPoints.size());
  for (int i = 0; i < seenPoints.size(); ++i) cloud.points_.push_back(seenPoints.point(i));
  const open3d::geometry::KDTreeFlann tree(cloud);

  UnseenFillResult result;
  TriangleSurface seen;
  seen.vertices = surface.vertices;
  seen.source = surface.source;
  std::vector<int> kept;
  for (int t = 0; t < surface.triangleCount(); ++t) {
    Vec3 centroid = Vec3::Zero();
    for (int c = 0; c < 3; ++c) centroid += surface.vertices.row(surface.triangles(t, c)).transpose() / 3.0;
    if (anyPointWithin(tree, centroid, radius))
      kept.push_back(t);
    else
      ++result.unseenTriangles;
  }
  result.seenTriangles = static_cast<int>(kept.size());
  if (result.unseenTriangles == 0 || kept.empty()) return result;
  seen.triangles.resize(static_cast<Eigen::Index>(kept.size()), 3);
  for (std::size_t r = 0; r < kept.size(); ++r) seen.triangles.row(static_cast<Eigen::Index>(r)) = surface.triangles.row(kept[r]);
  // The clustered (Barnes-Hut) sum alone: the exact fallback of WindingNumber::inside
  // sums every triangle for each sample near 1/2, and the unseen fill is mostly there.
  const WindingNumber winding(seen, kWindingAccuracy);

  const int before = countInside(volume);
  std::vector<char> trimmed(volume.sampleCount(), 0);
  int count = 0;
  for (int k = 0; k < volume.dims[2]; ++k)
    for (int j = 0; j < volume.dims[1]; ++j)
      for (int i = 0; i < volume.dims[0]; ++i) {
        const long long s = volume.index(i, j, k);
        if (!(volume.values[s] < 0.0) || (!trimmable.empty() && !trimmable[s])) continue;
        const Vec3 x = volume.samplePosition(i, j, k);
        if (options.groundNormal.dot(x) + options.groundOffset < options.groundBand + options.floorMargin) continue;
        if (anyPointWithin(tree, x, radius) || winding.value(x) >= 0.5) continue;
        trimmed[s] = 1;
        ++count;
      }
  result.trimmedSamples = count;
  if (count == 0) return result;
  const int offsets[6][3] = {{-1, 0, 0}, {1, 0, 0}, {0, -1, 0}, {0, 1, 0}, {0, 0, -1}, {0, 0, 1}};
  for (int k = 0; k < volume.dims[2]; ++k)
    for (int j = 0; j < volume.dims[1]; ++j)
      for (int i = 0; i < volume.dims[0]; ++i) {
        const long long s = volume.index(i, j, k);
        if (trimmed[s]) {
          volume.values[s] = 0.5 * h;
          continue;
        }
        if (!(volume.values[s] < 0.0)) continue;
        for (const auto& o : offsets) {
          const int a = i + o[0], b = j + o[1], c = k + o[2];
          if (a < 0 || b < 0 || c < 0 || a >= volume.dims[0] || b >= volume.dims[1] || c >= volume.dims[2]) continue;
          if (trimmed[volume.index(a, b, c)]) volume.values[s] = std::max(volume.values[s], -0.5 * h);
        }
      }
  extrudeIntoGroundBand(volume, options.groundNormal, options.groundOffset, options.groundBand);
  // As the fusion did: the extruded band ends at the ground.
  if (options.clipAtGround) clipAtGround(volume, options.groundNormal, options.groundOffset);
  keepLargestInsideRegion(volume, 0.5 * h);
  result.removedSamples = before - countInside(volume);
  return result;
}

}  // namespace softfit
