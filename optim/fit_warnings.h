#pragma once
// What "converged" alone does not say about a fit's end point: a parameter at an absurd
// value or at a bound of its range means the model cannot explain the observations (the
// wrong scene, the wrong capture, a parameter the data do not constrain). Every front end
// reports these next to the convergence flag (result.json "warnings", stderr, Python).
#include <string>
#include <vector>

#include "forward/types.h"
#include "optim/parameter_transform.h"

namespace softfit {

// The absurd-value limits: E in Pa, density in kg/m^3.
constexpr double kAbsurdYoungsLow = 1.0, kAbsurdYoungsHigh = 1e12;
constexpr double kAbsurdDensityLow = 1e-2, kAbsurdDensityHigh = 1e5;
// A bounded (logit) parameter within this fraction of its interval from an end is "at the bound".
constexpr double kBoundFraction = 2e-3;

// One sentence per problem, naming the parameter and its value; empty for a plausible end.
std::vector<std::string> fitEndWarnings(const std::vector<std::string>& names, const VecX& values,
                                        const TransformSet& transforms);

}  // namespace softfit
