#include "optim/parameter_transform.h"

#include <cmath>
#include <sstream>

#include "forward/errors.h"

namespace softfit {

double ParameterTransform::toInternal(double p) const {
  switch (kind) {
    case Kind::Log:
      if (!(p > 0.0)) {
        std::ostringstream msg;
        msg << "parameter value " << p << " must be positive (optimized in log space)";
        throw InputError(msg.str());
      }
      return std::log(p);
    case Kind::Logit: {
      if (!(p > lower && p < upper)) {
        std::ostringstream msg;
        msg << "parameter value " << p << " must lie in (" << lower << ", " << upper << ")";
        throw InputError(msg.str());
      }
      const double s = (p - lower) / (upper - lower);
      return std::log(s / (1.0 - s));
    }
    case Kind::Identity: return p;
  }
  return p;
}

double ParameterTransform::toPhysical(double q) const {
  switch (kind) {
    case Kind::Log: return std::exp(q);
    case Kind::Logit: return lower + (upper - lower) / (1.0 + std::exp(-q));
    case Kind::Identity: return q;
  }
  return q;
}

double ParameterTransform::derivative(double q) const {
  switch (kind) {
    case Kind::Log: return std::exp(q);
    case Kind::Logit: {
      const double s = 1.0 / (1.0 + std::exp(-q));
      return (upper - lower) * s * (1.0 - s);
    }
    case Kind::Identity: return 1.0;
  }
  return 1.0;
}

ParameterTransform defaultTransform(ParameterKind kind) {
  switch (kind) {
    case ParameterKind::YoungsModulus:
    case ParameterKind::Density:
    case ParameterKind::Alpha1:
    case ParameterKind::Alpha2: return {ParameterTransform::Kind::Log};
    case ParameterKind::PoissonRatio: return {ParameterTransform::Kind::Logit, 0.0, 0.5};
    default: return {ParameterTransform::Kind::Identity};
  }
}

VecX TransformSet::toInternal(const VecX& p) const {
  VecX q(p.size());
  for (int i = 0; i < p.size(); ++i) q[i] = transforms[i].toInternal(p[i]);
  return q;
}

VecX TransformSet::toPhysical(const VecX& q) const {
  VecX p(q.size());
  for (int i = 0; i < q.size(); ++i) p[i] = transforms[i].toPhysical(q[i]);
  return p;
}

VecX TransformSet::gradientToInternal(const VecX& q, const VecX& physicalGradient) const {
  VecX g(q.size());
  for (int i = 0; i < q.size(); ++i) g[i] = physicalGradient[i] * transforms[i].derivative(q[i]);
  return g;
}

TransformSet defaultTransforms(const std::vector<ParameterKind>& kinds) {
  TransformSet set;
  for (auto k : kinds) set.transforms.push_back(defaultTransform(k));
  return set;
}

TransformSet defaultTransforms(const std::vector<Parameter>& parameters) {
  TransformSet set;
  for (const auto& p : parameters) set.transforms.push_back(defaultTransform(p.kind));
  return set;
}

}  // namespace softfit
