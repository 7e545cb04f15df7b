#include "reconstruct/surface_refinement.h"

#include <open3d/geometry/KDTreeFlann.h>
#include <open3d/geometry/PointCloud.h>

#include <algorithm>
#include <cmath>

#include "forward/errors.h"
#include "forward/mesh/triangle_bvh.h"

namespace softfit {

namespace {

void validate(const TriangleSurface& surface, const PointCloud& points, const std::vector<double>& sigmas,
              const SurfaceRefinementOptions& o) {
  const std::string context = "rest surface refinement: ";
  if (static_cast<int>(sigmas.size()) != points.size())
    throw InputError(context + std::to_string(points.size()) + " points but " + std::to_string(sigmas.size()) +
                     " sigmas");
  for (std::size_t i = 0; i < sigmas.size(); ++i)
    if (!(sigmas[i] > 0.0) || !std::isfinite(sigmas[i]))
      throw InputError(context + "sigma of point " + std::to_string(i) + " is not positive and finite");
  if (o.iterations < 0) throw InputError(context + "iterations must be >= 0");
  if (!(o.radius > 0.0) || !std::isfinite(o.radius)) throw InputError(context + "radius must be positive");
  if (!(o.normalAgreement >= -1.0 && o.normalAgreement <= 1.0))
    throw InputError(context + "normal agreement must lie in [-1, 1]");
  if (!(o.maxDistance >= 0.0) || !(o.maxShift >= 0.0))
    throw InputError(context + "max distance and max shift must be >= 0");
  if (surface.vertexCount() == 0 || surface.triangleCount() == 0) throw InputError(context + "empty surface");
}

Vec3 vertex(const TriangleSurface& s, int i) { return s.vertices.row(i).transpose(); }

// Area-weighted vertex normals (unit; zero for a vertex of degenerate triangles only).
std::vector<Vec3> vertexNormals(const TriangleSurface& s) {
  std::vector<Vec3> n(s.vertexCount(), Vec3::Zero());
  for (int t = 0; t < s.triangleCount(); ++t) {
    const Vec3 a = vertex(s, s.triangles(t, 0)), b = vertex(s, s.triangles(t, 1)), c = vertex(s, s.triangles(t, 2));
    const Vec3 area2 = (b - a).cross(c - a);
    for (int k = 0; k < 3; ++k) n[s.triangles(t, k)] += area2;
  }
  for (Vec3& v : n) {
    const double len = v.norm();
    if (len > 0.0) v /= len;
  }
  return n;
}

}  // namespace

SurfaceRefinementSummary refineSurfaceToPoints(TriangleSurface& surface, const PointCloud& points,
                                               const std::vector<double>& sigmas,
                                               const SurfaceRefinementOptions& options) {
  validate(surface, points, sigmas, options);
  SurfaceRefinementSummary summary;
  const int nv = surface.vertexCount();
  if (options.iterations == 0 || points.empty()) return summary;
  const auto start = surface.vertices;

  std::vector<double> sorted = sigmas;
  std::nth_element(sorted.begin(), sorted.begin() + sorted.size() / 2, sorted.end());
  const double sigmaMedian = sorted[sorted.size() / 2];
  const double prior = 1.0 / (sigmaMedian * sigmaMedian);
  const double kernelVariance = 0.25 * options.radius * options.radius;

  std::vector<double> residual(nv), weight(nv), shift(nv);
  std::vector<int> neighbours;
  std::vector<double> distance2;
  for (int it = 0; it < options.iterations; ++it) {
    const std::vector<Vec3> normals = vertexNormals(surface);
    const VecX flat = Eigen::Map<const VecX>(surface.vertices.data(), 3 * nv);
    const TriangleBvh bvh(flat, surface.triangles);
    std::fill(residual.begin(), residual.end(), 0.0);
    std::fill(weight.begin(), weight.end(), 0.0);
    summary.pointsUsed = 0;
    for (int i = 0; i < points.size(); ++i) {
      const Vec3 p = points.point(i);
      const TriangleBvh::Nearest q = bvh.closestPoint(p);
      if (q.triangle < 0) continue;
      const int ia = surface.triangles(q.triangle, 0), ib = surface.triangles(q.triangle, 1),
                ic = surface.triangles(q.triangle, 2);
      const Vec3 a = vertex(surface, ia);
      const Vec3 faceNormal = (vertex(surface, ib) - a).cross(vertex(surface, ic) - a).normalized();
      const double r = (p - q.point).dot(faceNormal);
      if (!std::isfinite(r) || std::abs(r) > 3.0 * sigmas[i] + options.maxDistance) continue;
      ++summary.pointsUsed;
      const double w = 1.0 / (sigmas[i] * sigmas[i]);
      const int corner[3] = {ia, ib, ic};
      for (int k = 0; k < 3; ++k) {
        residual[corner[k]] += w * q.barycentric[k] * r;
        weight[corner[k]] += w * q.barycentric[k];
      }
    }

    open3d::geometry::PointCloud cloud;
    cloud.points_.reserve(nv);
    for (int v = 0; v < nv; ++v) cloud.points_.push_back(vertex(surface, v));
    const open3d::geometry::KDTreeFlann tree(cloud);
    for (int v = 0; v < nv; ++v) {
      tree.SearchRadius(cloud.points_[v], options.radius, neighbours, distance2);
      // Sum in index order: the tree's neighbour order must not change the bits.
      std::vector<std::pair<int, double>> sortedNeighbours(neighbours.size());
      for (std::size_t k = 0; k < neighbours.size(); ++k) sortedNeighbours[k] = {neighbours[k], distance2[k]};
      std::sort(sortedNeighbours.begin(), sortedNeighbours.end());
      double num = 0.0, den = prior;
      for (const auto& [u, d2] : sortedNeighbours) {
        if (normals[u].dot(normals[v]) < options.normalAgreement) continue;
        const double k = std::exp(-0.5 * d2 / kernelVariance);
        num += k * residual[u];
        den += k * weight[u];
      }
      shift[v] = std::clamp(num / den, -options.maxShift, options.maxShift);
    }
    for (int v = 0; v < nv; ++v) surface.vertices.row(v) += shift[v] * normals[v].transpose();
  }
  for (int v = 0; v < nv; ++v) {
    const double moved = (surface.vertices.row(v) - start.row(v)).norm();
    summary.meanShift += moved / nv;
    summary.maxShift = std::max(summary.maxShift, moved);
  }
  return summary;
}

}  // namespace softfit
