#pragma once
// Base of the capture losses that compare each frame's points with the deformed surface
// as the capture's own cameras see it (the rendered-mixture and per-pixel costs): the
// surface is any embedded surface (a tet mesh's boundary or a cut-cell grid's object
// surface: vertices W x, gradient chained by W^T), the cameras must be those that took
// the capture (a capture folder's cameras.json), and the points' noise sigma is known
// (options.noiseSigma). Rendered points appear, vanish and change pixels at silhouettes,
// so the value jumps (use a gradient-only line search).
#include <string>
#include <vector>

#include "grid/embedded_surface.h"
#include "observations/camera.h"
#include "observations/capture_loss.h"

namespace softfit {

class RenderedViewLoss : public CaptureLoss {
 public:
  const EmbeddedSurface& surface() const { return surface_; }
  bool valueJumps() const override { return true; }

 protected:
  // Throws InputError naming `kind` and the capture for an invalid option or capture,
  // options.noiseSigma <= 0 (`sigmaUse` says what the cost needs it for), a Huber delta,
  // no camera or invalid intrinsics, an empty surface or a triangle index out of range.
  RenderedViewLoss(Capture capture, EmbeddedSurface surface, std::vector<Camera> cameras,
                   const PointCloudLossOptions& options, const std::string& kind, const std::string& sigmaUse);
  // weight * J of one frame's cloud on the surface's vertices (flat 3V), adding its
  // gradient w.r.t. them to gradient.
  virtual double surfaceCost(const PointCloud& cloud, const VecX& vertices, double weight, VecX& gradient) = 0;
  const std::vector<Camera>& cameras() const { return cameras_; }

 private:
  double frameCost(const PointCloud& cloud, const VecX& x, double weight, VecX& gx) final;

  EmbeddedSurface surface_;
  std::vector<Camera> cameras_;
};

}  // namespace softfit
