#include "forward/mesh/tet_mesh.h"

#include <Eigen/LU>
#include <cmath>
#include <sstream>

#include "forward/errors.h"
#include "forward/value_limits.h"

namespace softfit {

namespace {

// A tet is degenerate when |V| <= kDegenerateShape * (longest edge)^3. A regular tet has
// V / L^3 ~ 0.118; the flattest tets in the shared meshes are ~1e-8; a flat tet
// evaluates to ~1e-16 L^3 in floating point. Scale-free, so tiny but well-shaped tets pass.
constexpr double kDegenerateShape = 1e-12;

std::string describeTet(const TetMesh& mesh, int t) {
  std::ostringstream s;
  s << "tetrahedron " << t << " (0-based; vertices " << mesh.tets(t, 0) << " " << mesh.tets(t, 1) << " "
    << mesh.tets(t, 2) << " " << mesh.tets(t, 3) << ")";
  return s.str();
}

double longestEdge(const TetMesh& mesh, int t) {
  double longest = 0.0;
  for (int a = 0; a < 4; ++a)
    for (int b = a + 1; b < 4; ++b)
      longest = std::max(longest, (mesh.vertices.row(mesh.tets(t, a)) - mesh.vertices.row(mesh.tets(t, b))).norm());
  return longest;
}

}  // namespace

VecX TetMesh::restPositions() const {
  VecX x(3 * vertices.rows());
  for (Eigen::Index i = 0; i < vertices.rows(); ++i) x.segment<3>(3 * i) = vertices.row(i).transpose();
  return x;
}

double signedTetVolume(const TetMesh& mesh, int t) {
  const Vec3 x0 = mesh.vertices.row(mesh.tets(t, 0)).transpose();
  Mat3 dm;
  for (int c = 0; c < 3; ++c) dm.col(c) = mesh.vertices.row(mesh.tets(t, c + 1)).transpose() - x0;
  return dm.determinant() / 6.0;
}

void validateTetMesh(const TetMesh& mesh) {
  const std::string& src = mesh.source;
  if (mesh.vertexCount() == 0) throw InputError(src + ": mesh has no vertices");
  if (mesh.tetCount() == 0) throw InputError(src + ": mesh has no tetrahedra");
  for (int v = 0; v < mesh.vertexCount(); ++v) {
    if (!mesh.vertices.row(v).allFinite()) {
      std::ostringstream s;
      s << src << ": vertex " << v << " (0-based) has a non-finite coordinate (" << mesh.vertices(v, 0) << ", "
        << mesh.vertices(v, 1) << ", " << mesh.vertices(v, 2) << ")";
      throw InputError(s.str());
    }
    if (mesh.vertices.row(v).cwiseAbs().maxCoeff() > kMaxCoordinate) {  // finite but past any scene
      std::ostringstream s;
      s << src << ": vertex " << v << " (0-based) has a coordinate too large (" << mesh.vertices(v, 0) << ", "
        << mesh.vertices(v, 1) << ", " << mesh.vertices(v, 2) << "; magnitude at most " << kMaxCoordinate << ")";
      throw InputError(s.str());
    }
  }
  const int n = mesh.vertexCount();
  for (int t = 0; t < mesh.tetCount(); ++t) {
    for (int a = 0; a < 4; ++a) {
      const int v = mesh.tets(t, a);
      if (v < 0 || v >= n)
        throw InputError(src + ": " + describeTet(mesh, t) + " has vertex index " + std::to_string(v) +
                         " out of range [0, " + std::to_string(n) + ")");
      for (int b = 0; b < a; ++b)
        if (mesh.tets(t, b) == v)
          throw InputError(src + ": " + describeTet(mesh, t) + " repeats vertex " + std::to_string(v));
    }
    const double volume = signedTetVolume(mesh, t);
    const double edge = longestEdge(mesh, t);
    if (!(std::abs(volume) > kDegenerateShape * edge * edge * edge)) {
      std::ostringstream s;
      s << src << ": " << describeTet(mesh, t) << " is degenerate (zero volume: signed volume " << volume
        << ", longest edge " << edge << ")";
      throw InputError(s.str());
    }
    if (volume < 0.0) {
      std::ostringstream s;
      s << src << ": " << describeTet(mesh, t) << " is inverted (negative signed volume " << volume
        << "); expected (v1-v0, v2-v0, v3-v0) to be right-handed";
      throw InputError(s.str());
    }
  }
}

}  // namespace softfit
