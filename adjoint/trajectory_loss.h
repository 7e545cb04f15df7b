#pragma once
// A loss summed over the frames of a trajectory: L = sum_k l_k(x_k, v_k).
#include "forward/integrators/time_integrator.h"

namespace softfit {

class TrajectoryLoss {
 public:
  virtual ~TrajectoryLoss() = default;
  // l_k for frame k (0 = initial state); adds dl_k/dx and dl_k/dv into gx, gv.
  virtual double evaluate(int frame, const State& state, VecX& gx, VecX& gv) = 0;
};

}  // namespace softfit
