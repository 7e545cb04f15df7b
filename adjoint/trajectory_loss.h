#pragma once
// A loss summed over the frames of a trajectory: L = sum_k l_k(x_k, v_k).
#include <vector>

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
  // A least-squares loss (l_k = 1/2 |r_k|^2) says so here and appends r_k for frame k in
  // appendResiduals; Gauss-Newton Hessians (optim/hessian_preconditioner.h) use them.
  // The count must not depend on the state (the same entries at every parameter value).
  virtual bool hasResiduals() const { return false; }
  virtual void appendResiduals(int /*frame*/, const State& /*state*/, std::vector<double>& /*r*/) const {}
  // How the residuals of frame k scale the observation errors they stand for: r_i = c_i
  // e_i, with e_i an observation's own error (a point's distance in metres) and c_i the
  // square root of its weight in the loss. Appends one c_i per residual of
  // appendResiduals; false (nothing appended) when the loss does not say, and the
  // residuals are then taken as the errors themselves. Fit uncertainties use it.
  virtual bool appendResidualScales(int /*frame*/, std::vector<double>& /*c*/) const { return false; }
};

}  // namespace softfit
