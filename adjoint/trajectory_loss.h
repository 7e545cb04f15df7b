#pragma once
// A loss summed over the frames of a trajectory: L = sum_k l_k(x_k, v_k).
#include "forward/integrators/time_integrator.h"

namespace softfit {

class TrajectoryLoss {
 public:
  virtual ~TrajectoryLoss() = default;
  // l_k for frame k (0 = initial state); adds dl_k/dx and dl_k/dv into gx, gv.
  virtual double evaluate(int frame, const State& state, VecX& gx, VecX& gv) = 0;
  // True when the value jumps where the loss's discretization changes (e.g. points
  // changing cell) while the gradient stays that of the current smooth piece: fits then
  // need a line search that does not compare values (defaultOptimizer, optim/).
  virtual bool valueJumps() const { return false; }
};

}  // namespace softfit
