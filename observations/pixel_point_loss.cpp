#include "observations/pixel_point_loss.h"

#include <string>
#include <utility>

#include "forward/errors.h"
#include "observations/observation_json.h"
#include "observations/pixel_point_cost.h"

namespace softfit {

PixelPointLoss::PixelPointLoss(Capture capture, EmbeddedSurface surface, std::vector<Camera> cameras,
                               const PointCloudLossOptions& options)
    : CaptureLoss(std::move(capture), options, "per-pixel point loss"),
      surface_(std::move(surface)),
      cameras_(std::move(cameras)) {
  if (!(options.noiseSigma > 0.0))
    throw InputError(description() + ": needs the points' noise sigma (> 0) for its outlier truncation");
  if (cameras_.empty()) throw InputError(description() + ": needs the cameras that took the capture");
  if (options.huberDelta > 0.0)
    throw InputError(description() + ": a Huber delta does not apply (the cost truncates outliers itself)");
  surface_.validateTriangles(description());
  for (size_t c = 0; c < cameras_.size(); ++c)
    withErrorPrefix(description() + ": camera " + std::to_string(c),
                    [&] { validateIntrinsics(cameras_[c].intrinsics, "intrinsics"); });
  for (const CaptureFrame& f : this->capture().frames)
    if (f.cloud.pixels.size() != static_cast<std::size_t>(f.cloud.size()))
      throw InputError(description() + ": frame " + std::to_string(f.frame) +
                       " has no pixel ids for its points (the per-pixel cost needs each point's camera pixel, "
                       "as a rendered capture records them)");
}

double PixelPointLoss::frameCost(const PointCloud& cloud, const VecX& x, double weight, VecX& gx) {
  surface_.checkNodeCount(x);
  const VecX y = surface_.flatPositions(x);
  VecX gy = VecX::Zero(y.size());
  PixelPointOptions options;
  options.sigma = this->options().noiseSigma;
  options.threads = this->options().threads;
  const double cost = pixelPointCost(cloud, y, surface_.triangles, cameras_, options, weight, &gy);
  surface_.addNodeGradient(gy, gx);
  return cost;
}

}  // namespace softfit
