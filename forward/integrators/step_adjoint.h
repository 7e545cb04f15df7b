#pragma once
// Types for the reverse (adjoint) pass over one time step. Each integrator implements
// adjointStep next to its forward step (e.g. newmark_theta_adjoint.cpp next to
// newmark_theta_integrator.cpp); adjoint/ drives them over a stored trajectory.
#include "forward/energies/model_gradient.h"

namespace softfit {

// Adjoint of one step from (previous, current) to next. On entry nextX/nextV hold the
// total dL/dx_{n+1}, dL/dv_{n+1}; adjointStep adds the contributions of this step to
// currentX/currentV (dL/dx_n, dL/dv_n), previousX/previousV (multistep schemes) and
// the parameter gradient.
struct StepAdjoint {
  VecX nextX, nextV;
  VecX currentX, currentV;
  VecX previousX, previousV;
  ModelGradient* parameters = nullptr;
  // The solution of the linear adjoint solve of the step reversed just before this one
  // (the next step in time; empty at the first). Integrators that solve iteratively
  // start from it and leave their own solution here for the step after; it changes
  // only where the iteration starts, not what it converges to.
  VecX solveGuess;
};

}  // namespace softfit
