#include "observations/point_surface_cost.h"

#include <algorithm>
#include <cmath>

#include "forward/errors.h"
#include "forward/math/parallel_ranges.h"

namespace softfit {

std::vector<PointSurfaceMatch> matchPointsToSurface(const PointCloud& cloud, const TriangleBvh& surface,
                                                    int threads) {
  const int n = cloud.size();
  std::vector<PointSurfaceMatch> matches(n);
  if (n == 0) return matches;
  if (surface.triangleCount() == 0) throw InputError("point-to-surface cost: the surface has no triangles");
  const auto work = [&](int begin, int end) {
    for (int i = begin; i < end; ++i) {
      const Vec3 p = cloud.point(i);
      const TriangleBvh::Nearest q = surface.closestPoint(p);
      matches[i].triangle = q.triangle;
      matches[i].barycentric = q.barycentric;
      matches[i].point = q.point;
      matches[i].distance = std::sqrt(q.distanceSquared);
    }
  };
  forEachRangeInParallel(n, threads, work);
  return matches;
}

double pointToSurfaceCost(const PointCloud& cloud, const VecX& positions, const TriangleMatrix& surface,
                          const RobustKernel& kernel, double weight, VecX* gradient, int threads) {
  validateRobustKernel(kernel);
  if (gradient && gradient->size() != positions.size())
    throw InputError("point-to-surface cost: gradient size " + std::to_string(gradient->size()) +
                     " differs from the positions' size " + std::to_string(positions.size()));
  if (cloud.empty() || weight == 0.0) return 0.0;
  const TriangleBvh bvh(positions, surface);
  const std::vector<PointSurfaceMatch> matches = matchPointsToSurface(cloud, bvh, threads);
  double cost = 0.0;
  // Sequential accumulation in point order: bit-identical for any thread count.
  for (int i = 0; i < cloud.size(); ++i) {
    const PointSurfaceMatch& m = matches[i];
    cost += kernel.value(m.distance);
    if (!gradient) continue;
    const Vec3 g = (weight * kernel.gradientScale(m.distance)) * (m.point - cloud.point(i));
    for (int j = 0; j < 3; ++j) gradient->segment<3>(3 * surface(m.triangle, j)) += m.barycentric[j] * g;
  }
  return weight * cost;
}

}  // namespace softfit
