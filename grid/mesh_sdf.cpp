#include "grid/mesh_sdf.h"

#include <Eigen/Geometry>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <map>
#include <sstream>

#include "forward/errors.h"
#include "forward/mesh/obj_surface_reader.h"
#include "forward/mesh/stl_surface_reader.h"
#include "forward/mesh/surface_checks.h"

namespace softfit {

namespace {

Vec3 corner(const TriangleSurface& s, int t, int c) { return s.vertices.row(s.triangles(t, c)).transpose(); }

double angleBetween(const Vec3& u, const Vec3& v) {
  return std::atan2(u.cross(v).norm(), u.dot(v));
}

}  // namespace

void checkConsistentOrientation(const TriangleSurface& surface) {
  std::map<std::pair<int, int>, int> directed;
  for (int t = 0; t < surface.triangleCount(); ++t)
    for (int c = 0; c < 3; ++c) ++directed[{surface.triangles(t, c), surface.triangles(t, (c + 1) % 3)}];
  for (const auto& [edge, count] : directed) {
    const auto opposite = directed.find({edge.second, edge.first});
    if (count != 1 || opposite == directed.end() || opposite->second != 1) {
      std::ostringstream s;
      s << surface.source << ": surface is not closed and consistently oriented: directed edge (" << edge.first
        << ", " << edge.second << ") is used " << count << " time(s), its reverse "
        << (opposite == directed.end() ? 0 : opposite->second)
        << " time(s) (a closed, outward-oriented triangle surface is required for an SDF)";
      throw InputError(s.str());
    }
  }
}

TriangleMeshSdf::TriangleMeshSdf(const TriangleSurface& input) : source_(input.source) {
  if (!input.vertices.allFinite()) throw InputError(source_ + ": surface has non-finite vertex coordinates");
  TriangleSurface surface = cleanSurface(input);
  surface.source = input.source;
  checkClosedSurface(surface);
  checkConsistentOrientation(surface);
  const double volume = enclosedVolume(surface);
  if (!(std::abs(volume) > 0.0)) throw InputError(source_ + ": surface encloses no volume");
  if (volume < 0.0)  // inward-oriented: flip
    for (int t = 0; t < surface.triangleCount(); ++t) std::swap(surface.triangles(t, 1), surface.triangles(t, 2));

  const int triangles = surface.triangleCount();
  faceNormals_.resize(triangles);
  vertexNormals_.assign(surface.vertexCount(), Vec3::Zero());
  edgeNormals_.assign(3 * static_cast<size_t>(triangles), Vec3::Zero());
  std::map<std::pair<int, int>, Vec3> edgeSum;
  for (int t = 0; t < triangles; ++t) {
    const Vec3 a = corner(surface, t, 0), b = corner(surface, t, 1), c = corner(surface, t, 2);
    const Vec3 n = (b - a).cross(c - a);
    faceNormals_[t] = n.norm() > 0.0 ? Vec3(n.normalized()) : Vec3::Zero();
    const Vec3 p[3] = {a, b, c};
    for (int k = 0; k < 3; ++k) {
      const Vec3 u = p[(k + 1) % 3] - p[k], v = p[(k + 2) % 3] - p[k];
      vertexNormals_[surface.triangles(t, k)] += angleBetween(u, v) * faceNormals_[t];
      const int i = surface.triangles(t, k), j = surface.triangles(t, (k + 1) % 3);
      // emplace: a default-constructed Eigen vector would be uninitialized.
      edgeSum.emplace(std::make_pair(std::min(i, j), std::max(i, j)), Vec3::Zero()).first->second += faceNormals_[t];
    }
  }
  for (int t = 0; t < triangles; ++t)
    for (int k = 0; k < 3; ++k) {
      const int i = surface.triangles(t, k), j = surface.triangles(t, (k + 1) % 3);
      edgeNormals_[3 * t + k] = edgeSum.at({std::min(i, j), std::max(i, j)});
    }
  bounds_ = {surface.vertices.colwise().minCoeff().transpose(), surface.vertices.colwise().maxCoeff().transpose()};
  triangles_ = surface.triangles;
  const PointMatrix vertices = surface.vertices;
  bvh_ = std::make_unique<TriangleBvh>(Eigen::Map<const VecX>(vertices.data(), vertices.size()), triangles_);
}

Vec3 TriangleMeshSdf::pseudonormal(const TriangleBvh::Nearest& n) const {
  const auto& tris = triangles_;
  switch (n.feature) {
    case TriangleFeature::Vertex0: return vertexNormals_[tris(n.triangle, 0)];
    case TriangleFeature::Vertex1: return vertexNormals_[tris(n.triangle, 1)];
    case TriangleFeature::Vertex2: return vertexNormals_[tris(n.triangle, 2)];
    case TriangleFeature::Edge01: return edgeNormals_[3 * n.triangle + 0];
    case TriangleFeature::Edge12: return edgeNormals_[3 * n.triangle + 1];
    case TriangleFeature::Edge20: return edgeNormals_[3 * n.triangle + 2];
    case TriangleFeature::Face: break;
  }
  return faceNormals_[n.triangle];
}

double TriangleMeshSdf::value(const Vec3& p) const {
  const TriangleBvh::Nearest n = bvh_->closestPoint(p);
  const double distance = std::sqrt(n.distanceSquared);
  return (p - n.point).dot(pseudonormal(n)) < 0.0 ? -distance : distance;
}

TriangleSurface readSdfSurface(const std::string& path, double scale, const Vec3& translate) {
  std::string extension = std::filesystem::path(path).extension().string();
  std::transform(extension.begin(), extension.end(), extension.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  TriangleSurface surface;
  if (extension == ".obj") surface = readObjSurface(path);
  else if (extension == ".stl") surface = readStlSurface(path);
  else throw InputError(path + ": unsupported surface format \"" + extension + "\" for an SDF (use .obj or .stl)");
  if (!(scale > 0.0) || !std::isfinite(scale)) throw InputError(path + ": scale must be positive and finite");
  if (!translate.allFinite()) throw InputError(path + ": translate must be finite");
  surface.vertices *= scale;
  surface.vertices.rowwise() += translate.transpose();
  return surface;
}

std::shared_ptr<TriangleMeshSdf> loadTriangleMeshSdf(const std::string& path, double scale, const Vec3& translate) {
  return std::make_shared<TriangleMeshSdf>(readSdfSurface(path, scale, translate));
}

}  // namespace softfit
