#include "face/muscle_surface.h"

#include <Eigen/Geometry>
#include <cmath>

#include "forward/mesh/triangle_bvh.h"

namespace softfit::face {

double windingNumber(const TriangleSurface& surface, const Vec3& p) {
  // Sum of signed solid angles (Van Oosterom and Strackee 1983) / 4 pi.
  double total = 0.0;
  for (int t = 0; t < surface.triangleCount(); ++t) {
    const Vec3 a = surface.vertices.row(surface.triangles(t, 0)).transpose() - p;
    const Vec3 b = surface.vertices.row(surface.triangles(t, 1)).transpose() - p;
    const Vec3 c = surface.vertices.row(surface.triangles(t, 2)).transpose() - p;
    const double la = a.norm(), lb = b.norm(), lc = c.norm();
    const double numerator = a.dot(b.cross(c));
    const double denominator = la * lb * lc + a.dot(b) * lc + b.dot(c) * la + c.dot(a) * lb;
    total += 2.0 * std::atan2(numerator, denominator);
  }
  return total / (4.0 * M_PI);
}

VecX distancesToVolume(const TriangleSurface& surface, const std::vector<Vec3>& points) {
  VecX flat(3 * surface.vertexCount());
  for (int v = 0; v < surface.vertexCount(); ++v) flat.segment<3>(3 * v) = surface.vertices.row(v).transpose();
  const TriangleBvh bvh(flat, surface.triangles);
  const Vec3 lo = surface.vertices.colwise().minCoeff(), hi = surface.vertices.colwise().maxCoeff();
  VecX d(points.size());
  for (std::size_t i = 0; i < points.size(); ++i) {
    const Vec3& p = points[i];
    // Outside the bounding box the point is outside (winding number ~ 0): skip the sum.
    const bool inBox = (p.array() >= lo.array()).all() && (p.array() <= hi.array()).all();
    d[i] = inBox && std::abs(windingNumber(surface, p)) > 0.5 ? 0.0 : std::sqrt(bvh.closestPoint(p).distanceSquared);
  }
  return d;
}

MuscleGeometry geometryFromSurfaces(const TetMesh& mesh, const std::vector<TriangleSurface>& muscles,
                                    double radius) {
  const std::vector<Vec3> centroids = tetCentroids(mesh);
  std::vector<VecX> distance;
  for (const auto& m : muscles) distance.push_back(distancesToVolume(m, centroids));
  return geometryFromDistances(distance, radius);
}

}  // namespace softfit::face
