#include "observations/rendered_view_loss.h"

#include <utility>

#include "forward/errors.h"
#include "observations/observation_json.h"

namespace softfit {

RenderedViewLoss::RenderedViewLoss(Capture capture, EmbeddedSurface surface, std::vector<Camera> cameras,
                                   const PointCloudLossOptions& options, const std::string& kind,
                                   const std::string& sigmaUse)
    : CaptureLoss(std::move(capture), options, kind), surface_(std::move(surface)), cameras_(std::move(cameras)) {
  if (!(options.noiseSigma > 0.0)) throw InputError(description() + ": needs the points' noise sigma (> 0): " + sigmaUse);
  if (cameras_.empty()) throw InputError(description() + ": needs the cameras that took the capture");
  if (options.huberDelta > 0.0)
    throw InputError(description() + ": a Huber delta does not apply (the cost treats outliers itself)");
  surface_.validateTriangles(description());
  for (size_t c = 0; c < cameras_.size(); ++c)
    withErrorPrefix(description() + ": camera " + std::to_string(c),
                    [&] { validateIntrinsics(cameras_[c].intrinsics, "intrinsics"); });
}

double RenderedViewLoss::frameCost(const PointCloud& cloud, const VecX& x, double weight, VecX& gx) {
  surface_.checkNodeCount(x);
  const VecX y = surface_.flatPositions(x);
  VecX gy = VecX::Zero(y.size());
  const double cost = surfaceCost(cloud, y, weight, gy);
  surface_.addNodeGradient(gy, gx);
  return cost;
}

}  // namespace softfit
