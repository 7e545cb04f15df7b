#include "scene/tet_contact_points.h"

#include <map>

namespace softfit {

std::vector<ContactPoint> surfaceVertexContactPoints(const VecX& rest, const TriangleMatrix& triangles) {
  std::map<int, double> area;  // node -> its third of the adjacent triangles' areas
  for (Eigen::Index t = 0; t < triangles.rows(); ++t) {
    const Vec3 a = rest.segment<3>(3 * triangles(t, 0)), b = rest.segment<3>(3 * triangles(t, 1)),
               c = rest.segment<3>(3 * triangles(t, 2));
    const double third = (b - a).cross(c - a).norm() / 6.0;
    for (int k = 0; k < 3; ++k) area[triangles(t, k)] += third;
  }
  std::vector<ContactPoint> points;
  points.reserve(area.size());
  for (const auto& [node, a] : area) points.push_back(ContactPoint{{node}, {1.0}, a});
  return points;
}

}  // namespace softfit
