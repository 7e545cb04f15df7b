#include "observations/point_surface_cost.h"

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include "forward/errors.h"
#include "forward/math/parallel_ranges.h"

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
  forEachRangeInParallel(n, threads, work);
  return matches;
}

namespace {

// Vertex areas (a third of the areas of the triangles around each vertex) and, when
// `twiceNormals` is non-null, (b - a) x (c - a) = 2 A n of every triangle.
VecX vertexAreas(const VecX& positions, const TriangleMatrix& surface, std::vector<Vec3>* twiceNormals) {
  VecX area = VecX::Zero(positions.size() / 3);
  if (twiceNormals) twiceNormals->resize(static_cast<size_t>(surface.rows()));
  for (int t = 0; t < surface.rows(); ++t) {
    for (int j = 0; j < 3; ++j)
      if (surface(t, j) < 0 || 3 * surface(t, j) + 2 >= positions.size())
        throw InputError("triangle areas: triangle " + std::to_string(t) + " has a node index out of range");
    const Vec3 a = positions.segment<3>(3 * surface(t, 0));
    const Vec3 n = (positions.segment<3>(3 * surface(t, 1)) - a).cross(positions.segment<3>(3 * surface(t, 2)) - a);
    if (twiceNormals) (*twiceNormals)[static_cast<size_t>(t)] = n;
    for (int j = 0; j < 3; ++j) area[surface(t, j)] += n.norm() / 6.0;
  }
  return area;
}

}  // namespace

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
  noise.referenceLogVertexArea = vertexAreas(referencePositions, surface, nullptr).array().log();
  return noise;
}

double pointToSurfaceCost(const PointCloud& cloud, const VecX& positions, const TriangleMatrix& surface,
                          const RobustKernel& kernel, double weight, VecX* gradient, int threads,
                          const PointSurfaceNoise* noise) {
  validateRobustKernel(kernel);
  const double sigma = noise ? noise->sigma : 0.0;
  if (!(sigma >= 0.0) || !std::isfinite(sigma))
    throw InputError("point-to-surface cost: the noise sigma must be finite and >= 0");
  if (sigma > 0.0 && noise->referenceLogVertexArea.size() != positions.size() / 3)
    throw InputError("point-to-surface cost: " + std::to_string(noise->referenceLogVertexArea.size()) +
                     " reference vertex areas for " + std::to_string(positions.size() / 3) + " vertices");
  if (gradient && gradient->size() != positions.size())
    throw InputError("point-to-surface cost: gradient size " + std::to_string(gradient->size()) +
                     " differs from the positions' size " + std::to_string(positions.size()));
  if (cloud.empty() || weight == 0.0) return 0.0;
  const TriangleBvh bvh(positions, surface);
  const std::vector<PointSurfaceMatch> matches = matchPointsToSurface(cloud, bvh, threads);
  // Noise correction: per point sigma^2 / 2 * S, S = sum_j b_j l_j with l_j = log(A_j / A_j^ref)
  // (0 for vertices without a reference area).
  const double halfSigma2 = 0.5 * sigma * sigma;
  std::vector<Vec3> twiceNormal;
  VecX logStretch, area, vertexWeight;  // vertexWeight: d(cost)/d(l_v)
  if (sigma > 0.0) {
    area = vertexAreas(positions, surface, &twiceNormal);
    logStretch = VecX::Zero(area.size());
    for (int v = 0; v < area.size(); ++v)
      if (std::isfinite(noise->referenceLogVertexArea[v])) {
        if (!(area[v] > 0.0))
          throw InputError("point-to-surface cost: noise correction at surface vertex " + std::to_string(v) +
                           ", whose triangles have collapsed to zero area");
        logStretch[v] = std::log(area[v]) - noise->referenceLogVertexArea[v];
      }
    vertexWeight = VecX::Zero(area.size());
  }
  double cost = 0.0;
  // Sequential accumulation in point order: bit-identical for any thread count.
  for (int i = 0; i < cloud.size(); ++i) {
    const PointSurfaceMatch& m = matches[i];
    cost += kernel.value(m.distance);
    const int t = m.triangle;
    const int va = surface(t, 0), vb = surface(t, 1), vc = surface(t, 2);
    if (sigma > 0.0) {
      const Vec3 l(logStretch[va], logStretch[vb], logStretch[vc]);
      cost += halfSigma2 * m.barycentric.dot(l);
      if (gradient) {
        const double s = weight * halfSigma2;
        vertexWeight[va] += s * m.barycentric[0];
        vertexWeight[vb] += s * m.barycentric[1];
        vertexWeight[vc] += s * m.barycentric[2];
        // Sliding of the closest point: dS/dx through b (p fixed).
        const Vec3 a = positions.segment<3>(3 * va), b = positions.segment<3>(3 * vb), c = positions.segment<3>(3 * vc);
        const Vec3 p = cloud.point(i);
        int nonzero = 0;
        for (int j = 0; j < 3; ++j) nonzero += m.barycentric[j] != 0.0;
        if (nonzero == 3) {
          // Face: b = (1 - beta1 - beta2, beta1, beta2), G beta = (w.e1, w.e2), w = p - a.
          const Vec3 e1 = b - a, e2 = c - a, w = p - a;
          Eigen::Matrix2d G;
          G << e1.dot(e1), e1.dot(e2), e1.dot(e2), e2.dot(e2);
          const Eigen::Vector2d lambda = G.inverse() * Eigen::Vector2d(l[1] - l[0], l[2] - l[0]);
          const double beta1 = m.barycentric[1], beta2 = m.barycentric[2];
          const Vec3 P = beta1 * e1 + beta2 * e2, Lambda = lambda[0] * e1 + lambda[1] * e2;
          const Vec3 db = lambda[0] * (w - P) - beta1 * Lambda;
          const Vec3 dc = lambda[1] * (w - P) - beta2 * Lambda;
          const Vec3 da = -Lambda - db - dc;
          gradient->segment<3>(3 * va) += s * da;
          gradient->segment<3>(3 * vb) += s * db;
          gradient->segment<3>(3 * vc) += s * dc;
        } else if (nonzero == 2) {
          // Edge u -> v: b_u = 1 - r, b_v = r, r = (p - u).e / e.e, e = v - u.
          int ju = -1, jv = -1;
          for (int j = 0; j < 3; ++j)
            if (m.barycentric[j] != 0.0) (ju < 0 ? ju : jv) = j;
          const int vu = surface(t, ju), vv = surface(t, jv);
          const Vec3 u = positions.segment<3>(3 * vu), e = positions.segment<3>(3 * vv) - u, w = p - u;
          const double L2 = e.dot(e), r = m.barycentric[jv];
          const double dl = l[jv] - l[ju];
          gradient->segment<3>(3 * vv) += (s * dl / L2) * (w - 2.0 * r * e);
          gradient->segment<3>(3 * vu) += (s * dl / L2) * (2.0 * r * e - e - w);
        }  // vertex: b constant
      }
    }
    if (!gradient) continue;
    const Vec3 g = (weight * kernel.gradientScale(m.distance)) * (m.point - cloud.point(i));
    for (int j = 0; j < 3; ++j) gradient->segment<3>(3 * surface(m.triangle, j)) += m.barycentric[j] * g;
  }
  if (sigma > 0.0 && gradient) {
    // sum_v W_v d l_v = sum_v W_v / A_v * sum_{t at v} dA_t / 3, dA_t / dv_j = (2 A n) x e_j / (4 A).
    for (int t = 0; t < surface.rows(); ++t) {
      double coefficient = 0.0;
      for (int j = 0; j < 3; ++j) {
        const int v = surface(t, j);
        if (vertexWeight[v] != 0.0 && std::isfinite(noise->referenceLogVertexArea[v]))
          coefficient += vertexWeight[v] / (3.0 * area[v]);
      }
      if (coefficient == 0.0) continue;
      const Vec3& twiceN = twiceNormal[static_cast<size_t>(t)];
      const double twiceArea = twiceN.norm();
      if (!(twiceArea > 0.0)) continue;  // a degenerate triangle: its area is not differentiable (no change to first order)
      const Vec3 x[3] = {positions.segment<3>(3 * surface(t, 0)), positions.segment<3>(3 * surface(t, 1)),
                         positions.segment<3>(3 * surface(t, 2))};
      for (int j = 0; j < 3; ++j)
        gradient->segment<3>(3 * surface(t, j)) +=
            (coefficient / (2.0 * twiceArea)) * twiceN.cross(x[(j + 2) % 3] - x[(j + 1) % 3]);
    }
  }
  return weight * cost;
}

}  // namespace softfit
