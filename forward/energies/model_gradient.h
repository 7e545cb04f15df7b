#pragma once
// dL/d(physical parameter) of a PhysicalModel, accumulated over the steps of a
// trajectory by the reverse pass: each energy's parameter adjoint adds to it
// (physical_model_adjoint.cpp, elastic_energy_adjoint.cpp, ground_contact_adjoint.cpp).
#include "forward/types.h"

namespace softfit {

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

}  // namespace softfit
