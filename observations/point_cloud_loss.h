#pragma once
// The point-to-surface cost (point_surface_cost.h) over a capture, as a TrajectoryLoss:
//   L = sum_f w_f * scale_f * sum_i rho(|p_fi - q_fi(x_{f * stride})|)
// where capture frame f is compared with simulation step f * stride, w_f = the frame's
// weight times options.weight, and scale_f = 1 / (points in frame f) with
// averageOverPoints, else 1. Steps without a capture frame contribute nothing.
// Typical use:
//   Capture capture = loadCapture(dir);
//   PointCloudLossOptions o; o.stride = frameStride(capture, dt);
//   PointCloudSurfaceLoss loss(capture, built.surface, o);   // simulate loss.lastStep() steps
#include "adjoint/trajectory_loss.h"
#include "observations/capture.h"
#include "observations/robust_kernel.h"

namespace softfit {

struct PointCloudLossOptions {
  int stride = 1;                  // simulation steps per capture frame
  double weight = 1.0;             // global factor on every frame's weight (>= 0)
  double huberDelta = 0.0;         // > 0: Huber kernel on the distance (robust_kernel.h)
  bool averageOverPoints = false;  // divide each frame's cost by its number of points
  int threads = 0;                 // closest-point queries (0 = all hardware threads); results do not depend on it
};

class PointCloudSurfaceLoss final : public TrajectoryLoss {
 public:
  // `surface`: triangles as indices into the body's nodes (e.g. BuiltScene::surface).
  // Throws InputError (naming the capture) for an invalid option, an empty surface, a
  // negative triangle index, or a non-finite point.
  PointCloudSurfaceLoss(Capture capture, TriangleMatrix surface, const PointCloudLossOptions& options = {});

  // Cost of simulation step `step` (0 = initial state); adds its gradient w.r.t. x to gx
  // (gv is untouched). Throws InputError naming the step and frame when a triangle
  // references a node the state does not have.
  double evaluate(int step, const State& state, VecX& gx, VecX& gv) override;

  // Capture frame observed at simulation step `step`, or -1.
  int frameAtStep(int step) const;
  // Last simulation step with an observation: (frameCount - 1) * stride.
  int lastStep() const { return (capture_.frameCount() - 1) * options_.stride; }
  const Capture& capture() const { return capture_; }
  const TriangleMatrix& surface() const { return surface_; }
  const PointCloudLossOptions& options() const { return options_; }

 private:
  Capture capture_;
  TriangleMatrix surface_;
  PointCloudLossOptions options_;
};

}  // namespace softfit
