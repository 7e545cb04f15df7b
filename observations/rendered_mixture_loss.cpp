#include "observations/rendered_mixture_loss.h"

#include <utility>

#include "observations/rendered_mixture_cost.h"

namespace softfit {

RenderedMixtureLoss::RenderedMixtureLoss(Capture capture, EmbeddedSurface surface, std::vector<Camera> cameras,
                                         const PointCloudLossOptions& options)
    : RenderedViewLoss(std::move(capture), std::move(surface), std::move(cameras), options, "rendered mixture loss",
                       "the cost is their likelihood under it") {}

double RenderedMixtureLoss::surfaceCost(const PointCloud& cloud, const VecX& vertices, double weight,
                                        VecX& gradient) {
  RenderedMixtureOptions o;
  o.sigma = options().noiseSigma;
  o.threads = options().threads;
  return renderedMixtureCost(cloud, vertices, surface().triangles, cameras(), o, weight, &gradient);
}

}  // namespace softfit
