#include "observations/rendered_mixture_loss.h"

#include <string>
#include <utility>

#include "forward/errors.h"
#include "observations/observation_json.h"
#include "observations/rendered_mixture_cost.h"

namespace softfit {

RenderedMixtureLoss::RenderedMixtureLoss(Capture capture, EmbeddedSurface surface, std::vector<Camera> cameras,
                                         const PointCloudLossOptions& options)
    : CaptureLoss(std::move(capture), options, "rendered mixture loss"),
      surface_(std::move(surface)),
      cameras_(std::move(cameras)) {
  if (!(options.noiseSigma > 0.0))
    throw InputError(description() + ": needs the points' noise sigma (> 0): the cost is their likelihood under it");
  if (cameras_.empty()) throw InputError(description() + ": needs the cameras that took the capture");
  if (options.huberDelta > 0.0)
    throw InputError(description() + ": a Huber delta does not apply (the cost is robust through its outlier floor)");
  surface_.validateTriangles(description());
  for (size_t c = 0; c < cameras_.size(); ++c)
    withErrorPrefix(description() + ": camera " + std::to_string(c),
                    [&] { validateIntrinsics(cameras_[c].intrinsics, "intrinsics"); });
}

double RenderedMixtureLoss::frameCost(const PointCloud& cloud, const VecX& x, double weight, VecX& gx) {
  surface_.checkNodeCount(x);
  const VecX y = surface_.flatPositions(x);
  VecX gy = VecX::Zero(y.size());
  RenderedMixtureOptions options;
  options.sigma = this->options().noiseSigma;
  options.threads = this->options().threads;
  const double cost = renderedMixtureCost(cloud, y, surface_.triangles, cameras_, options, weight, &gy);
  surface_.addNodeGradient(gy, gx);
  return cost;
}

}  // namespace softfit
