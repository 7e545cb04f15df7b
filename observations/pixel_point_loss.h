#pragma once
// The per-pixel point cost (pixel_point_cost.h) over a capture (capture_loss.h): each
// frame's points, with the camera pixel each was seen at (PointCloud::pixels, as the
// virtual cameras and single-depth-image frames record them), against the deformed
// surface as the same cameras see it; surface, cameras and sigma (the outlier
// truncation) as in rendered_view_loss.h.
#include "observations/rendered_view_loss.h"

namespace softfit {

class PixelPointLoss final : public RenderedViewLoss {
 public:
  // Throws InputError (naming the capture) as RenderedViewLoss does, and for a frame
  // without one pixel id per point.
  PixelPointLoss(Capture capture, EmbeddedSurface surface, std::vector<Camera> cameras,
                 const PointCloudLossOptions& options);

 private:
  double surfaceCost(const PointCloud& cloud, const VecX& vertices, double weight, VecX& gradient) override;
};

}  // namespace softfit
