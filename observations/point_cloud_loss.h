#pragma once
// The closest-point cost (point_surface_cost.h) over a capture (capture_loss.h):
//   J_f(x) = sum_i rho(|p_fi - q_fi(x)|), q_fi the closest point to p_fi on the deformed
// surface. The surface is a tet mesh's boundary (triangles over the body's nodes) or an
// embedded surface (a cut-cell grid's: vertices = W x, gradient chained by W^T).
// Typical use:
//   Capture capture = loadCapture(dir);
//   PointCloudLossOptions o; o.stride = frameStride(capture, dt);
//   PointCloudSurfaceLoss loss(capture, built.embeddedSurface, o);   // simulate loss.lastStep() steps
#include "grid/embedded_surface.h"
#include "observations/capture_loss.h"
#include "observations/point_surface_cost.h"

namespace softfit {

class PointCloudSurfaceLoss final : public CaptureLoss {
 public:
  // `surface`: triangles as indices into the body's nodes (e.g. BuiltScene::surface).
  // `referenceNodes`: node positions (3 * nodes) of the reference configuration whose
  // surface areas the noise correction measures area changes against (the rest
  // positions); needed only with options.noiseSigma > 0.
  // Throws InputError (naming the capture) for an invalid option or capture, an empty
  // surface, a negative triangle index, or noiseSigma > 0 without reference nodes.
  PointCloudSurfaceLoss(Capture capture, TriangleMatrix surface, const PointCloudLossOptions& options = {},
                        const VecX& referenceNodes = VecX());
  // Any embedded surface (e.g. BuiltScene::embeddedSurface, tet or grid scene).
  PointCloudSurfaceLoss(Capture capture, EmbeddedSurface surface, const PointCloudLossOptions& options = {},
                        const VecX& referenceNodes = VecX());

  const EmbeddedSurface& surface() const { return surface_; }

 private:
  double frameCost(const PointCloud& cloud, const VecX& x, double weight, VecX& gx) override;
  // The plain squared cost (no Huber kernel, no noise correction) is 1/2 sum d_i^2 with
  // d_i the distance to the closest surface point, signed by the side of its triangle.
  bool residualForm() const override;
  void frameDistances(const PointCloud& cloud, const VecX& x, std::vector<double>& e) const override;

  EmbeddedSurface surface_;
  PointSurfaceNoise noise_;  // sigma = 0 without the noise correction
};

}  // namespace softfit
