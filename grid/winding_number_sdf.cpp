#include "grid/winding_number_sdf.h"

#include <Eigen/Geometry>

#include <cmath>
#include <utility>

#include "forward/errors.h"
#include "forward/mesh/surface_checks.h"

namespace softfit {

WindingNumberMeshSdf::WindingNumberMeshSdf(const TriangleSurface& input) : source_(input.source) {
  if (!input.vertices.allFinite()) throw InputError(source_ + ": surface has non-finite vertex coordinates");
  TriangleSurface surface = cleanSurface(input);
  surface.source = input.source;
  double area = 0.0;
  for (int t = 0; t < surface.triangleCount(); ++t) {
    const Vec3 a = surface.vertices.row(surface.triangles(t, 0)).transpose();
    area += (surface.vertices.row(surface.triangles(t, 1)).transpose() - a)
                .cross(surface.vertices.row(surface.triangles(t, 2)).transpose() - a)
                .norm();
  }
  if (!(area > 0.0)) throw InputError(source_ + ": surface has no triangle of positive area");
  // The divergence-theorem volume is exact for closed surfaces and a fair vote on the
  // orientation of open ones (scanned meshes are consistently oriented almost everywhere).
  if (enclosedVolume(surface) < 0.0)
    for (int t = 0; t < surface.triangleCount(); ++t) std::swap(surface.triangles(t, 1), surface.triangles(t, 2));
  bounds_ = {surface.vertices.colwise().minCoeff().transpose(), surface.vertices.colwise().maxCoeff().transpose()};
  const PointMatrix vertices = surface.vertices;
  bvh_ = std::make_unique<TriangleBvh>(Eigen::Map<const VecX>(vertices.data(), vertices.size()), surface.triangles);
  winding_ = std::make_unique<WindingNumber>(surface);
}

double WindingNumberMeshSdf::value(const Vec3& p) const {
  const double distance = std::sqrt(bvh_->closestPoint(p).distanceSquared);
  return winding_->inside(p) ? -distance : distance;
}

}  // namespace softfit
