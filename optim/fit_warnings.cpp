#include "optim/fit_warnings.h"

#include "forward/value_limits.h"

namespace softfit {

namespace {

// "E@2" -> "E".
std::string kind(const std::string& name) { return name.substr(0, name.find('@')); }

}  // namespace

std::vector<std::string> fitEndWarnings(const std::vector<std::string>& names, const VecX& values,
                                        const TransformSet& transforms) {
  std::vector<std::string> warnings;
  for (std::size_t i = 0; i < names.size(); ++i) {
    const double v = values[static_cast<Eigen::Index>(i)];
    const std::string where = names[i] + " = " + formatValue(v);
    const std::string k = kind(names[i]);
    if (k == "E" && (v < kAbsurdYoungsLow || v > kAbsurdYoungsHigh))
      warnings.push_back(where + " Pa is absurd (outside [1, 1e12] Pa): the model does not explain the observations "
                                 "(the wrong scene or capture?)");
    if (k == "density" && (v < kAbsurdDensityLow || v > kAbsurdDensityHigh))
      warnings.push_back(where + " kg/m^3 is absurd (outside [0.01, 1e5]): the model does not explain the observations");
    if (i < transforms.transforms.size() && transforms.transforms[i].kind == ParameterTransform::Kind::Logit) {
      const ParameterTransform& t = transforms.transforms[i];
      const double margin = kBoundFraction * (t.upper - t.lower);
      if (v < t.lower + margin || v > t.upper - margin)
        warnings.push_back(where + " ends at a bound of its range (" + formatValue(t.lower) + ", " +
                           formatValue(t.upper) + "): the observations do not determine it, or the model is wrong");
    }
  }
  return warnings;
}

}  // namespace softfit
