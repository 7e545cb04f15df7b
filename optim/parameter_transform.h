#pragma once
// Optimization in transformed coordinates so that bounds hold by construction
// (docs/theory.rst, section 3): each parameter's transform (adjoint/scalar_transform.h) comes
// from its descriptor (adjoint/parameter_descriptor.h).
#include <string>
#include <vector>

#include "adjoint/parameter_space.h"

namespace softfit {

struct TransformSet {
  std::vector<ParameterTransform> transforms;
  VecX toInternal(const VecX& p) const;
  VecX toPhysical(const VecX& q) const;
  // Chain rule: dL/dq = dL/dp * dp/dq.
  VecX gradientToInternal(const VecX& q, const VecX& physicalGradient) const;
};

// Each parameter's default transform (its ParameterDescriptor's).
TransformSet defaultTransforms(const std::vector<Parameter>& parameters);

}  // namespace softfit
