#pragma once
// The Newmark-theta velocity update and its reverse step, shared by the CPU
// (newmark_theta_integrator.cpp / newmark_theta_adjoint.cpp) and GPU
// (cuda/cuda_newmark_integrator.cpp) integrators. With u = x - X and a = 1 / (theta dt):
//   v' = a (u' - u_n) - ((1 - theta) / theta) v_n            (docs/theory.rst, section 2)
#include "forward/integrators/step_adjoint.h"
#include "forward/types.h"
#include "forward/solvers/dirichlet_elimination.h"

namespace softfit {

inline VecX newmarkVelocity(const VecX& uNext, const VecX& uCurrent, const VecX& vCurrent, double theta, double dt) {
  const double a = 1.0 / (theta * dt);
  return a * (uNext - uCurrent) - ((1.0 - theta) / theta) * vCurrent;
}

// Reverse of newmarkVelocity: takes adj.nextV (zeroed on the Dirichlet dofs `fixed`,
// whose velocities are prescribed), adds its share to adj.currentX and adj.currentV,
// and returns the total adjoint of u' (adj.nextX plus the share through v'), zeroed on
// `fixed`.
inline VecX newmarkVelocityAdjoint(StepAdjoint& adj, const DofMask& fixed, double theta, double dt) {
  const double a = 1.0 / (theta * dt);
  VecX vBar = adj.nextV;
  zeroConstrained(vBar, fixed);
  VecX uBar = adj.nextX + a * vBar;
  adj.currentX -= a * vBar;
  adj.currentV -= ((1.0 - theta) / theta) * vBar;
  zeroConstrained(uBar, fixed);
  return uBar;
}

}  // namespace softfit
