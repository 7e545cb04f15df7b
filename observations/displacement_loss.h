#pragma once
// Displacement loss (thesis 5.4.1) as a TrajectoryLoss:
//   L = sum_f w_f 1/2 sum_i |x_{f * stride, n_fi} - t_fi|^2
// over the observed frames f (observation frame f <-> simulation step f * stride),
// observed nodes n_fi and targets t_fi. Steps without an observation contribute nothing.
#include "adjoint/trajectory_loss.h"
#include "observations/displacement_observations.h"

namespace softfit {

class DisplacementLoss final : public TrajectoryLoss {
 public:
  // Throws InputError (naming observations.source and the frame) when stride < 1, a
  // node index is out of range for a body of `nodeCount` nodes, an all-nodes frame does
  // not have nodeCount positions, a weight is negative, or a target is not finite.
  DisplacementLoss(DisplacementObservations observations, int nodeCount, int stride = 1);

  // Adds dL_step/dx to gx (gv untouched). Throws InputError when the state's size is not
  // 3 * nodeCount.
  double evaluate(int step, const State& state, VecX& gx, VecX& gv) override;
  // r = sqrt(w_f) (x_n - t) per observed node (3 entries each); none at unobserved steps.
  bool hasResiduals() const override { return true; }
  void appendResiduals(int step, const State& state, std::vector<double>& r) const override;

  // Index into observations().frames observed at simulation step `step`, or -1.
  int entryAtStep(int step) const;
  // Last simulation step with an observation.
  int lastStep() const;
  const DisplacementObservations& observations() const { return observations_; }

 private:
  DisplacementObservations observations_;
  int nodeCount_;
  int stride_;
  std::vector<int> entryOfFrame_;
  // The frame observed at `step` (nullptr if none); InputError when the state (or a
  // gradient of gradientSize entries) does not match the body.
  const DisplacementFrame* frameAtStep(int step, const State& state, Eigen::Index gradientSize) const;  // frame index -> entry, -1 when not observed
};

}  // namespace softfit
