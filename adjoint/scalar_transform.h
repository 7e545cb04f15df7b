#pragma once
// A bijection between a parameter's physical value p and the unconstrained value q an
// optimizer moves (docs/theory.rst, section 3): log for positive parameters (E, density,
// damping), a scaled logit for bounded ones (nu in (0, 0.5)), identity otherwise. Each
// ParameterDescriptor names its default; optim/parameter_transform.h applies them.
namespace softfit {

struct ParameterTransform {
  enum class Kind { Identity, Log, Logit };
  Kind kind = Kind::Identity;
  double lower = 0.0, upper = 1.0;  // Logit: the open interval

  double toInternal(double p) const;    // q = T^{-1}(p); InputError outside the domain
  double toPhysical(double q) const;    // p = T(q)
  double derivative(double q) const;    // dp/dq
};

}  // namespace softfit
