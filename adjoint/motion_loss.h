#pragma once
// A generic smooth loss on a trajectory, used by gradient checks and tests:
// L = sum_k [ 1/2 sum_i m_i |x_ki - X_i|^2 + 1/2 c sum_i m_i |v_ki|^2 ] / (total mass),
// with the masses frozen when the loss is made, so that it depends on the physical
// parameters only through the motion.
#include "adjoint/trajectory_loss.h"

namespace softfit {

class MassWeightedMotionLoss final : public TrajectoryLoss {
 public:
  explicit MassWeightedMotionLoss(const PhysicalModel& model, double velocityWeight = 0.1)
      : weights_(model.mass() / model.totalMass()), rest_(model.restPositions()), velocityWeight_(velocityWeight) {}
  double evaluate(int frame, const State& s, VecX& gx, VecX& gv) override;

 private:
  VecX weights_, rest_;
  double velocityWeight_;
};

}  // namespace softfit
