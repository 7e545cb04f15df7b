#pragma once
// A triangle surface mesh (e.g. read from OBJ or STL), the input of tetrahedralization.
#include <string>

#include "forward/types.h"

namespace softfit {

struct TriangleSurface {
  Eigen::Matrix<double, Eigen::Dynamic, 3, Eigen::RowMajor> vertices;  // N x 3
  Eigen::Matrix<int, Eigen::Dynamic, 3, Eigen::RowMajor> triangles;    // M x 3, 0-based
  std::string source = "<procedural>";  // file it was read from, for error messages

  int vertexCount() const { return static_cast<int>(vertices.rows()); }
  int triangleCount() const { return static_cast<int>(triangles.rows()); }
};

// Volume enclosed by a closed surface by the divergence theorem: sum over triangles of
// a . (b x c) / 6. Positive when the triangles are oriented counter-clockwise seen from
// outside (outward normals).
double enclosedVolume(const TriangleSurface& surface);

// The centre of mass of the solid a closed, outward-oriented surface encloses (uniform
// density; the divergence theorem over the tetrahedra of the triangles with the origin).
// The vertex mean when the enclosed volume is not positive (an open surface).
Vec3 enclosedCentroid(const TriangleSurface& surface);

}  // namespace softfit
