#include "observations/point_cloud_loss.h"

#include "forward/errors.h"
#include "observations/observation_json.h"

namespace softfit {

namespace {

EmbeddedSurface nodeSurface(TriangleMatrix triangles) {
  EmbeddedSurface s;
  s.identity = true;  // positions are the node positions; weights unused
  s.triangles = std::move(triangles);
  return s;
}

}  // namespace

PointCloudSurfaceLoss::PointCloudSurfaceLoss(Capture capture, TriangleMatrix surface,
                                             const PointCloudLossOptions& options, const VecX& referenceNodes)
    : PointCloudSurfaceLoss(std::move(capture), nodeSurface(std::move(surface)), options, referenceNodes) {}

PointCloudSurfaceLoss::PointCloudSurfaceLoss(Capture capture, EmbeddedSurface surface,
                                             const PointCloudLossOptions& options, const VecX& referenceNodes)
    : CaptureLoss(std::move(capture), options, "point-cloud loss"), surface_(std::move(surface)) {
  surface_.validateTriangles(description());
  if (options.noiseSigma > 0.0) {
    if (referenceNodes.size() == 0)
      throw InputError(description() + ": the noise correction needs the reference node positions");
    if (!surface_.identity && referenceNodes.size() != 3 * surface_.weights.cols())
      throw InputError(description() + ": " + std::to_string(referenceNodes.size() / 3) +
                       " reference nodes, the surface embedding has " + std::to_string(surface_.weights.cols()));
    noise_ = withErrorPrefix(description(), [&] {
      return makePointSurfaceNoise(options.noiseSigma,
                                   surface_.identity ? referenceNodes : surface_.flatPositions(referenceNodes),
                                   surface_.triangles);
    });
  }
}

double PointCloudSurfaceLoss::frameCost(const PointCloud& cloud, const VecX& x, double weight, VecX& gx) {
  const RobustKernel kernel{options().huberDelta};
  if (surface_.identity)
    return pointToSurfaceCost(cloud, x, surface_.triangles, kernel, weight, &gx, options().threads, &noise_);
  surface_.checkNodeCount(x);
  // Vertices y = W x (per coordinate); the gradient w.r.t. x is W^T times that w.r.t. y.
  const VecX y = surface_.flatPositions(x);
  VecX gy = VecX::Zero(y.size());
  const double cost =
      pointToSurfaceCost(cloud, y, surface_.triangles, kernel, weight, &gy, options().threads, &noise_);
  surface_.addNodeGradient(gy, gx);
  return cost;
}

bool PointCloudSurfaceLoss::residualForm() const { return options().huberDelta == 0.0 && noise_.sigma == 0.0; }

void PointCloudSurfaceLoss::frameDistances(const PointCloud& cloud, const VecX& x, std::vector<double>& e) const {
  if (!surface_.identity) surface_.checkNodeCount(x);
  const VecX y = surface_.identity ? x : surface_.flatPositions(x);
  const TriangleBvh bvh(y, surface_.triangles);
  const std::vector<PointSurfaceMatch> matches = matchPointsToSurface(cloud, bvh, options().threads);
  for (int i = 0; i < cloud.size(); ++i) {
    const PointSurfaceMatch& m = matches[i];
    const auto corner = [&](int k) { return Vec3(y.segment<3>(3 * surface_.triangles(m.triangle, k))); };
    const Vec3 normal = (corner(1) - corner(0)).cross(corner(2) - corner(0));
    e.push_back(normal.dot(cloud.point(i) - m.point) < 0.0 ? -m.distance : m.distance);
  }
}

}  // namespace softfit
