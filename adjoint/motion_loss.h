#pragma once
// A generic smooth loss on a trajectory, used by gradient checks and tests:
// L = sum_k [ 1/2 sum_i m_i |x_ki - X_i|^2 + 1/2 c sum_i m_i |v_ki|^2 ] / (total mass).
// It depends on every physical parameter through the motion.
#include "adjoint/trajectory_loss.h"

namespace softfit {

class MassWeightedMotionLoss final : public TrajectoryLoss {
 public:
  MassWeightedMotionLoss(const PhysicalModel& model, double velocityWeight = 0.1)
      : model_(model), velocityWeight_(velocityWeight) {}
  double evaluate(int frame, const State& s, VecX& gx, VecX& gv) override;

 private:
  const PhysicalModel& model_;
  double velocityWeight_;
};

}  // namespace softfit
