#pragma once
// The per-pixel point cost (pixel_point_cost.h) over a capture (capture_loss.h): each
// frame's points, with the camera pixel each was seen at (PointCloud::pixels, as the
// virtual cameras record them), against the deformed surface as the same cameras see
// it. The surface is any embedded surface (vertices W x, gradient chained by W^T); the
// noise sigma (options.noiseSigma) sets the outlier truncation.
#include <vector>

#include "grid/embedded_surface.h"
#include "observations/camera.h"
#include "observations/capture_loss.h"

namespace softfit {

class PixelPointLoss final : public CaptureLoss {
 public:
  // Throws InputError (naming the capture) for an invalid option or capture,
  // options.noiseSigma <= 0, a Huber delta, no camera, a frame without pixel ids, an
  // empty surface or a triangle index out of range.
  PixelPointLoss(Capture capture, EmbeddedSurface surface, std::vector<Camera> cameras,
                 const PointCloudLossOptions& options);

  // Pixels change hands at silhouettes (pixel_point_cost.h).
  bool valueJumps() const override { return true; }

 private:
  double frameCost(const PointCloud& cloud, const VecX& x, double weight, VecX& gx) override;

  EmbeddedSurface surface_;
  std::vector<Camera> cameras_;
};

}  // namespace softfit
