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

}  // namespace softfit
