#include "observations/point_surface_cost.h"

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include "forward/errors.h"
#include "observations/parallel_points.h"

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
  forEachPointInParallel(n, threads, work);
  return matches;
}

VecX triangleLogAreas(const VecX& positions, const TriangleMatrix& surface) {
  VecX logArea(surface.rows());
  for (int t = 0; t < surface.rows(); ++t) {
    for (int j = 0; j < 3; ++j)
      if (surface(t, j) < 0 || 3 * surface(t, j) + 2 >= positions.size())
        throw InputError("triangle areas: triangle " + std::to_string(t) + " has a node index out of range");
    const Vec3 a = positions.segment<3>(3 * surface(t, 0)), b = positions.segment<3>(3 * surface(t, 1)),
               c = positions.segment<3>(3 * surface(t, 2));
    logArea[t] = std::log(0.5 * (b - a).cross(c - a).norm());
  }
  return logArea;
}

PointSurfaceNoise makePointSurfaceNoise(double sigma, const VecX& referencePositions, const TriangleMatrix& surface) {
  if (!(sigma >= 0.0) || !std::isfinite(sigma))
    throw InputError("point-to-surface cost: the noise sigma must be finite and >= 0");
  PointSurfaceNoise noise;
  noise.sigma = sigma;
  noise.referenceLogArea = triangleLogAreas(referencePositions, surface);
  noise.vertexCount = referencePositions.size() / 3;
  noise.vertexStart.assign(static_cast<size_t>(noise.vertexCount) + 1, 0);
  for (int t = 0; t < surface.rows(); ++t)
    for (int j = 0; j < 3; ++j) {
      const int u = surface(t, j), v = surface(t, (j + 1) % 3);
      noise.edgeTriangles.emplace_back(static_cast<long long>(std::min(u, v)) * noise.vertexCount + std::max(u, v), t);
      ++noise.vertexStart[static_cast<size_t>(u) + 1];
    }
  std::sort(noise.edgeTriangles.begin(), noise.edgeTriangles.end());
  for (size_t v = 0; v + 1 < noise.vertexStart.size(); ++v) noise.vertexStart[v + 1] += noise.vertexStart[v];
  noise.vertexTriangles.resize(static_cast<size_t>(noise.vertexStart.back()));
  std::vector<int> fill(noise.vertexStart.begin(), noise.vertexStart.end() - 1);
  for (int t = 0; t < surface.rows(); ++t)
    for (int j = 0; j < 3; ++j)
      noise.vertexTriangles[static_cast<size_t>(fill[static_cast<size_t>(surface(t, j))]++)] = t;
  return noise;
}

double pointToSurfaceCost(const PointCloud& cloud, const VecX& positions, const TriangleMatrix& surface,
                          const RobustKernel& kernel, double weight, VecX* gradient, int threads,
                          const PointSurfaceNoise* noise) {
  validateRobustKernel(kernel);
  const double sigma = noise ? noise->sigma : 0.0;
  if (!(sigma >= 0.0) || !std::isfinite(sigma))
    throw InputError("point-to-surface cost: the noise sigma must be finite and >= 0");
  if (sigma > 0.0 && noise->referenceLogArea.size() != surface.rows())
    throw InputError("point-to-surface cost: " + std::to_string(noise->referenceLogArea.size()) +
                     " reference triangle areas for " + std::to_string(surface.rows()) + " triangles");
  if (gradient && gradient->size() != positions.size())
    throw InputError("point-to-surface cost: gradient size " + std::to_string(gradient->size()) +
                     " differs from the positions' size " + std::to_string(positions.size()));
  if (cloud.empty() || weight == 0.0) return 0.0;
  const TriangleBvh bvh(positions, surface);
  const std::vector<PointSurfaceMatch> matches = matchPointsToSurface(cloud, bvh, threads);
  // Noise correction: sigma^2 / 2 * log(A_t / A_t^ref) per point matched to triangle t;
  // a point whose closest point is on an edge or a vertex (the regions outside convex
  // edges and corners) takes the mean over the triangles sharing that edge or vertex, so
  // that the cost does not depend on which of them the search returned.
  const double halfSigma2 = 0.5 * sigma * sigma;
  std::vector<Vec3> twiceNormal;  // (b - a) x (c - a) = 2 A n per triangle
  const long long nodeCount = positions.size() / 3;
  if (sigma > 0.0) {
    if (noise->vertexCount != nodeCount ||
        noise->vertexStart.size() != static_cast<size_t>(nodeCount) + 1 ||
        noise->edgeTriangles.size() != 3 * static_cast<size_t>(surface.rows()))
      throw InputError("point-to-surface cost: the noise correction was made for another surface");
    twiceNormal.resize(static_cast<size_t>(surface.rows()));
    for (int t = 0; t < surface.rows(); ++t)
      twiceNormal[static_cast<size_t>(t)] =
          (positions.segment<3>(3 * surface(t, 1)) - positions.segment<3>(3 * surface(t, 0)))
              .cross(positions.segment<3>(3 * surface(t, 2)) - positions.segment<3>(3 * surface(t, 0)));
  }
  const auto& edgeTriangles = noise ? noise->edgeTriangles : std::vector<std::pair<long long, int>>();
  const auto edgeKey = [nodeCount](int u, int v) {
    return static_cast<long long>(std::min(u, v)) * nodeCount + std::max(u, v);
  };
  double cost = 0.0;
  std::vector<int> shared;
  const auto addTriangleTerm = [&](int t, double share) {
    if (!std::isfinite(noise->referenceLogArea[t])) return;
    const Vec3& twiceN = twiceNormal[static_cast<size_t>(t)];
    const double twiceArea = twiceN.norm();
    if (!(twiceArea > 0.0))
      throw InputError("point-to-surface cost: noise correction on triangle " + std::to_string(t) +
                       ", which has collapsed to zero area");
    cost += share * halfSigma2 * (std::log(0.5 * twiceArea) - noise->referenceLogArea[t]);
    if (!gradient) return;
    // d log A / d v_j = (n x (v_{j+2} - v_{j+1})) / (2 A) = (2 A n) x e_j / (2 A)^2.
    const Vec3 v[3] = {positions.segment<3>(3 * surface(t, 0)), positions.segment<3>(3 * surface(t, 1)),
                       positions.segment<3>(3 * surface(t, 2))};
    const double scale = share * weight * halfSigma2 / (twiceArea * twiceArea);
    for (int j = 0; j < 3; ++j)
      gradient->segment<3>(3 * surface(t, j)) += scale * twiceN.cross(v[(j + 2) % 3] - v[(j + 1) % 3]);
  };
  // Sequential accumulation in point order: bit-identical for any thread count.
  for (int i = 0; i < cloud.size(); ++i) {
    const PointSurfaceMatch& m = matches[i];
    cost += kernel.value(m.distance);
    if (sigma > 0.0) {
      // The closest feature: the face, an edge (one zero barycentric) or a vertex (two).
      int nonzero[3], count = 0;
      for (int j = 0; j < 3; ++j)
        if (m.barycentric[j] != 0.0) nonzero[count++] = surface(m.triangle, j);
      shared.clear();
      if (count == 2) {
        const long long key = edgeKey(nonzero[0], nonzero[1]);
        for (auto it = std::lower_bound(edgeTriangles.begin(), edgeTriangles.end(), std::make_pair(key, -1));
             it != edgeTriangles.end() && it->first == key; ++it)
          shared.push_back(it->second);
      } else if (count == 1) {
        shared.assign(noise->vertexTriangles.begin() + noise->vertexStart[static_cast<size_t>(nonzero[0])],
                      noise->vertexTriangles.begin() + noise->vertexStart[static_cast<size_t>(nonzero[0]) + 1]);
      }
      if (shared.empty()) shared.push_back(m.triangle);
      for (const int t : shared) addTriangleTerm(t, 1.0 / static_cast<double>(shared.size()));
    }
    if (!gradient) continue;
    const Vec3 g = (weight * kernel.gradientScale(m.distance)) * (m.point - cloud.point(i));
    for (int j = 0; j < 3; ++j) gradient->segment<3>(3 * surface(m.triangle, j)) += m.barycentric[j] * g;
  }
  return weight * cost;
}

}  // namespace softfit
