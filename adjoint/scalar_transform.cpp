#include "adjoint/scalar_transform.h"

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

}  // namespace softfit
