#pragma once
// Optimization in transformed coordinates so that bounds hold by construction
// (DESIGN.md section 3): log for positive parameters (E, density, damping), a scaled
// logit for bounded ones (nu in (0, 0.5)), identity otherwise.
#include <string>
#include <vector>

#include "adjoint/parameter_space.h"

namespace softfit {

struct ParameterTransform {
  enum class Kind { Identity, Log, Logit };
  Kind kind = Kind::Identity;
  double lower = 0.0, upper = 1.0;  // Logit: the open interval

  double toInternal(double p) const;    // q = T^{-1}(p)
  double toPhysical(double q) const;    // p = T(q)
  double derivative(double q) const;    // dp/dq
};

// The default transform of each parameter kind.
ParameterTransform defaultTransform(ParameterKind kind);

struct TransformSet {
  std::vector<ParameterTransform> transforms;
  VecX toInternal(const VecX& p) const;
  VecX toPhysical(const VecX& q) const;
  // Chain rule: dL/dq = dL/dp * dp/dq.
  VecX gradientToInternal(const VecX& q, const VecX& physicalGradient) const;
};

TransformSet defaultTransforms(const std::vector<ParameterKind>& kinds);
TransformSet defaultTransforms(const std::vector<Parameter>& parameters);

}  // namespace softfit
