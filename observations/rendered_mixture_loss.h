#pragma once
// The noise-aware rendered-mixture cost (rendered_mixture_cost.h) over a capture
// (capture_loss.h): each frame's points against the deformed surface as the capture's
// cameras see it, under isotropic Gaussian noise of known sigma (options.noiseSigma).
// The surface is any embedded surface (a tet mesh's boundary or a cut-cell grid's object
// surface: vertices W x, gradient chained by W^T). The cameras must be those that took
// the capture (a capture folder's cameras.json).
#include <vector>

#include "grid/embedded_surface.h"
#include "observations/camera.h"
#include "observations/capture_loss.h"

namespace softfit {

class RenderedMixtureLoss final : public CaptureLoss {
 public:
  // Throws InputError (naming the capture) for an invalid option or capture,
  // options.noiseSigma <= 0, no camera, an empty surface or a triangle index out of range.
  RenderedMixtureLoss(Capture capture, EmbeddedSurface surface, std::vector<Camera> cameras,
                      const PointCloudLossOptions& options);

  const EmbeddedSurface& surface() const { return surface_; }
  // Rendered points appear and vanish at silhouettes (rendered_mixture_cost.h).
  bool valueJumps() const override { return true; }

 private:
  double frameCost(const PointCloud& cloud, const VecX& x, double weight, VecX& gx) override;

  EmbeddedSurface surface_;
  std::vector<Camera> cameras_;
};

}  // namespace softfit
