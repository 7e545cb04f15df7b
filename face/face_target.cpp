#include "face/face_target.h"

#include <Eigen/Geometry>

#include "forward/errors.h"

namespace softfit::face {

FaceTarget makeSurfaceTarget(const std::string& name, const std::vector<int>& nodes, const TriangleSurface& scan) {
  if (scan.triangleCount() == 0) throw InputError(scan.source + ": scan surface has no triangles");
  FaceTarget target;
  target.name = name;
  target.nodes = nodes;
  target.points = PointMatrix::Zero(static_cast<Eigen::Index>(nodes.size()), 3);
  const VecX positions = Eigen::Map<const VecX>(scan.vertices.data(), scan.vertices.size());
  try {
    target.surface = std::make_shared<const ScanSurface>(ScanSurface{scan, TriangleBvh(positions, scan.triangles)});
  } catch (const InputError& e) {
    throw InputError(scan.source + ": " + e.what());
  }
  return target;
}

namespace {

// d cp / dx of the closest point cp of `scan` to p.
Mat3 closestPointDerivative(const TriangleSurface& scan, const TriangleBvh::Nearest& nearest) {
  const auto vertex = [&](int local) -> Vec3 {
    return scan.vertices.row(scan.triangles(nearest.triangle, local)).transpose();
  };
  int i = -1, j = -1;  // edge vertices (local indices)
  switch (nearest.feature) {
    case TriangleFeature::Face: {
      const Vec3 n = (vertex(1) - vertex(0)).cross(vertex(2) - vertex(0)).normalized();
      return Mat3::Identity() - n * n.transpose();  // sliding in the tangent plane
    }
    case TriangleFeature::Edge01: i = 0, j = 1; break;
    case TriangleFeature::Edge12: i = 1, j = 2; break;
    case TriangleFeature::Edge20: i = 2, j = 0; break;
    default: return Mat3::Zero();  // a vertex: fixed
  }
  const Vec3 e = (vertex(j) - vertex(i)).normalized();
  return e * e.transpose();  // sliding along the edge
}

}  // namespace

std::vector<TargetMatch> matchTarget(const FaceTarget& target, const VecX& x) {
  std::vector<TargetMatch> out(target.nodes.size());
  for (std::size_t k = 0; k < target.nodes.size(); ++k) {
    if (!target.surface) {
      out[k].point = target.points.row(k).transpose();
      continue;
    }
    const Vec3 p = x.segment<3>(3 * target.nodes[k]);
    const TriangleBvh::Nearest nearest = target.surface->bvh.closestPoint(p);
    out[k].point = nearest.point;
    out[k].residualDerivative = Mat3::Identity() - closestPointDerivative(target.surface->triangles, nearest);
  }
  return out;
}

double targetLoss(const FaceTarget& target, const VecX& x, double modelSize, VecX* gradient) {
  const int n = static_cast<int>(target.nodes.size());
  if (n == 0) return 0.0;
  const double scale = 1.0 / (n * modelSize * modelSize);
  const std::vector<TargetMatch> matches = matchTarget(target, x);
  double loss = 0.0;
  for (int k = 0; k < n; ++k) {
    const double w = target.weights.size() ? target.weights[k] : 1.0;
    const Vec3 r = x.segment<3>(3 * target.nodes[k]) - matches[k].point;
    loss += scale * w * r.squaredNorm();
    if (gradient) gradient->segment<3>(3 * target.nodes[k]) += 2.0 * scale * w * r;
  }
  return loss;
}

VecX correspondenceErrors(const FaceTarget& target, const VecX& x) {
  const std::vector<TargetMatch> matches = matchTarget(target, x);
  VecX e(target.nodes.size());
  for (std::size_t k = 0; k < target.nodes.size(); ++k)
    e[k] = (x.segment<3>(3 * target.nodes[k]) - matches[k].point).norm();
  return e;
}

VecX nodeErrors(const FaceTarget& target, const VecX& x, int nodeCount) {
  VecX e = VecX::Zero(nodeCount);
  const VecX c = correspondenceErrors(target, x);
  for (std::size_t k = 0; k < target.nodes.size(); ++k) e[target.nodes[k]] = c[k];
  return e;
}

}  // namespace softfit::face
