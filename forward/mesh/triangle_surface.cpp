#include "forward/mesh/triangle_surface.h"

#include <Eigen/Geometry>

namespace softfit {

double enclosedVolume(const TriangleSurface& surface) {
  double sixVolume = 0.0;
  for (int t = 0; t < surface.triangleCount(); ++t) {
    const Vec3 a = surface.vertices.row(surface.triangles(t, 0)).transpose();
    const Vec3 b = surface.vertices.row(surface.triangles(t, 1)).transpose();
    const Vec3 c = surface.vertices.row(surface.triangles(t, 2)).transpose();
    sixVolume += a.dot(b.cross(c));
  }
  return sixVolume / 6.0;
}

Vec3 enclosedCentroid(const TriangleSurface& surface) {
  double sixVolume = 0.0;
  Vec3 weighted = Vec3::Zero();
  for (int t = 0; t < surface.triangleCount(); ++t) {
    const Vec3 a = surface.vertices.row(surface.triangles(t, 0)).transpose();
    const Vec3 b = surface.vertices.row(surface.triangles(t, 1)).transpose();
    const Vec3 c = surface.vertices.row(surface.triangles(t, 2)).transpose();
    const double six = a.dot(b.cross(c));  // 6 x the signed volume of (0, a, b, c)
    sixVolume += six;
    weighted += six * (a + b + c) / 4.0;
  }
  if (sixVolume > 0.0) return weighted / sixVolume;
  if (surface.vertexCount() == 0) return Vec3::Zero();
  return surface.vertices.colwise().mean().transpose();
}

}  // namespace softfit
