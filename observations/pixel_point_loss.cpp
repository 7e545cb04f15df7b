#include "observations/pixel_point_loss.h"

#include <string>
#include <utility>

#include "forward/errors.h"
#include "observations/pixel_point_cost.h"

namespace softfit {

PixelPointLoss::PixelPointLoss(Capture capture, EmbeddedSurface surface, std::vector<Camera> cameras,
                               const PointCloudLossOptions& options)
    : RenderedViewLoss(std::move(capture), std::move(surface), std::move(cameras), options, "per-pixel point loss",
                       "it sets the outlier truncation") {
  for (const CaptureFrame& f : this->capture().frames)
    if (f.cloud.pixels.size() != static_cast<std::size_t>(f.cloud.size()))
      throw InputError(description() + ": frame " + std::to_string(f.frame) +
                       " has no pixel ids for its points (the per-pixel cost needs each point's camera pixel, "
                       "as a rendered capture or a frame of one depth image records them)");
}

double PixelPointLoss::surfaceCost(const PointCloud& cloud, const VecX& vertices, double weight, VecX& gradient) {
  PixelPointOptions o;
  o.sigma = options().noiseSigma;
  o.threads = options().threads;
  return pixelPointCost(cloud, vertices, surface().triangles, cameras(), o, weight, &gradient);
}

}  // namespace softfit
