#pragma once
// Types for the reverse (adjoint) pass over one time step. Each integrator implements
// adjointStep next to its forward step (e.g. newmark_theta_adjoint.cpp next to
// newmark_theta_integrator.cpp); adjoint/ drives them over a stored trajectory.
#include "forward/types.h"

namespace softfit {

// dL/d(physical parameter), accumulated over the steps of a trajectory.
struct ModelGradient {
  VecX mu, lambda;    // per element (Lame parameters)
  VecX density;       // per element
  double alpha1 = 0.0, alpha2 = 0.0;
  Vec3 gravity = Vec3::Zero();
  Vec3 groundNormal = Vec3::Zero();  // w.r.t. the (unit) normal vector's components
  double groundOffset = 0.0;

  explicit ModelGradient(int elements = 0)
      : mu(VecX::Zero(elements)), lambda(VecX::Zero(elements)), density(VecX::Zero(elements)) {}
};

// Adjoint of one step from (previous, current) to next. On entry nextX/nextV hold the
// total dL/dx_{n+1}, dL/dv_{n+1}; adjointStep adds the contributions of this step to
// currentX/currentV (dL/dx_n, dL/dv_n), previousX/previousV (multistep schemes) and
// the parameter gradient.
struct StepAdjoint {
  VecX nextX, nextV;
  VecX currentX, currentV;
  VecX previousX, previousV;
  ModelGradient* parameters = nullptr;
};

}  // namespace softfit
