#pragma once
// Base of the point-cloud losses over a capture, as a TrajectoryLoss:
//   L = sum_f w_f * scale_f * J_f(x_{f * stride})
// where capture frame f is compared with simulation step f * stride, w_f = the frame's
// weight times options.weight, scale_f = 1 / (points in frame f) with averageOverPoints
// (else 1), and J_f is the derived class's per-frame cost of the frame's cloud. Steps
// without a capture frame contribute nothing. Derived: PointCloudSurfaceLoss
// (closest point on the deformed surface), GridSdfPointLoss (thesis SDF cost).
#include <string>
#include <vector>

#include "adjoint/trajectory_loss.h"
#include "observations/capture.h"

namespace softfit {

struct PointCloudLossOptions {
  int stride = 1;                  // simulation steps per capture frame
  double weight = 1.0;             // global factor on every frame's weight (>= 0)
  double huberDelta = 0.0;         // > 0: Huber kernel on the distance (robust_kernel.h)
  bool averageOverPoints = false;  // divide each frame's cost by its number of points
  int threads = 0;                 // point queries (0 = all hardware threads); results do not depend on it
  double maxOutside = 1.0;         // grid SDF cost: extrapolation reach in cells (grid_sdf_point_cost.h)
  // Known standard deviation (metres, per coordinate) of the Gaussian noise on the
  // points: > 0 adds the closest-point cost's first-order noise-bias correction
  // (point_surface_cost.h); 0 = none. Not supported by the grid SDF cost.
  double noiseSigma = 0.0;
};

class CaptureLoss : public TrajectoryLoss {
 public:
  // Cost of simulation step `step` (0 = initial state); adds its gradient w.r.t. x to gx
  // (gv is untouched). Errors name the step and capture frame.
  double evaluate(int step, const State& state, VecX& gx, VecX& gv) final;

  // The least-squares form (TrajectoryLoss::hasResiduals) when the derived cost has one:
  // r_i = sqrt(w_f scale_f) e_i per point, e_i its signed distance (frameDistances), so
  // that 1/2 |r|^2 is the frame's cost; the scales are sqrt(w_f scale_f).
  bool hasResiduals() const final { return residualForm(); }
  void appendResiduals(int step, const State& state, std::vector<double>& r) const final;
  bool appendResidualScales(int step, std::vector<double>& c) const final;

  // Capture frame observed at simulation step `step`, or -1.
  int frameAtStep(int step) const;
  // Last simulation step with an observation: (frameCount - 1) * stride.
  int lastStep() const { return (capture_.frameCount() - 1) * options_.stride; }
  const Capture& capture() const { return capture_; }
  // Points of the last evaluated frame the cost could not use (dropped); 0 for costs
  // that use every point.
  virtual int lastDropped() const { return 0; }
  const PointCloudLossOptions& options() const { return options_; }

 protected:
  // Throws InputError naming `kind` and the capture for an invalid option, a capture
  // without frames, misnumbered frames, a bad frame weight or a non-finite point.
  CaptureLoss(Capture capture, const PointCloudLossOptions& options, const std::string& kind);
  // weight * J_f(x) for one (non-empty) cloud, adding its gradient to gx.
  virtual double frameCost(const PointCloud& cloud, const VecX& x, double weight, VecX& gx) = 0;
  // Whether the cost is 1/2 sum e_i^2 of per-point errors, and the errors of one cloud.
  virtual bool residualForm() const { return false; }
  virtual void frameDistances(const PointCloud& /*cloud*/, const VecX& /*x*/, std::vector<double>& /*e*/) const {}
  const std::string& description() const { return where_; }
  // w_f scale_f of capture frame f.
  double frameWeight(int f) const;

 private:
  Capture capture_;
  PointCloudLossOptions options_;
  std::string where_;
};

}  // namespace softfit
