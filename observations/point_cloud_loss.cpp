#include "observations/point_cloud_loss.h"

#include "forward/errors.h"
#include "observations/point_surface_cost.h"

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
                                             const PointCloudLossOptions& options)
    : PointCloudSurfaceLoss(std::move(capture), nodeSurface(std::move(surface)), options) {}

PointCloudSurfaceLoss::PointCloudSurfaceLoss(Capture capture, EmbeddedSurface surface,
                                             const PointCloudLossOptions& options)
    : CaptureLoss(std::move(capture), options, "point-cloud loss"), surface_(std::move(surface)) {
  if (surface_.triangles.rows() == 0) throw InputError(description() + ": the surface has no triangles");
  if (surface_.triangles.minCoeff() < 0) throw InputError(description() + ": the surface has a negative node index");
  if (!surface_.identity && surface_.triangles.maxCoeff() >= surface_.vertexCount())
    throw InputError(description() + ": a surface triangle references a vertex the embedding does not have");
}

double PointCloudSurfaceLoss::frameCost(const PointCloud& cloud, const VecX& x, double weight, VecX& gx) {
  const RobustKernel kernel{options().huberDelta};
  if (surface_.identity)
    return pointToSurfaceCost(cloud, x, surface_.triangles, kernel, weight, &gx, options().threads);
  if (x.size() != 3 * surface_.weights.cols())
    throw InputError("the state has " + std::to_string(x.size() / 3) + " nodes, the surface embedding " +
                     std::to_string(surface_.weights.cols()));
  // Vertices y = W x (per coordinate); the gradient w.r.t. x is W^T times that w.r.t. y.
  const VecX y = surface_.flatPositions(x);
  VecX gy = VecX::Zero(y.size());
  const double cost = pointToSurfaceCost(cloud, y, surface_.triangles, kernel, weight, &gy, options().threads);
  const Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, 3, Eigen::RowMajor>> gyv(gy.data(), gy.size() / 3, 3);
  const Eigen::Matrix<double, Eigen::Dynamic, 3, Eigen::RowMajor> gxv = surface_.weights.transpose() * gyv;
  gx += Eigen::Map<const VecX>(gxv.data(), gxv.size());
  return cost;
}

}  // namespace softfit
