#pragma once
// The noise-aware rendered-mixture cost (rendered_mixture_cost.h) over a capture
// (capture_loss.h): each frame's points against the deformed surface as the capture's
// cameras see it, under isotropic Gaussian noise of known sigma (options.noiseSigma);
// surface, cameras and sigma as in rendered_view_loss.h.
#include "observations/rendered_view_loss.h"

namespace softfit {

class RenderedMixtureLoss final : public RenderedViewLoss {
 public:
  // Throws InputError (naming the capture) as RenderedViewLoss does.
  RenderedMixtureLoss(Capture capture, EmbeddedSurface surface, std::vector<Camera> cameras,
                      const PointCloudLossOptions& options);

 private:
  double surfaceCost(const PointCloud& cloud, const VecX& vertices, double weight, VecX& gradient) override;
};

}  // namespace softfit
