#pragma once
// What "converged" alone does not say about a fit's end point: a parameter at an absurd
// value or at a bound of its range means the model cannot explain the observations (the
// wrong scene, the wrong capture, a parameter the data do not constrain). Every front end
// reports these next to the convergence flag (result.json "warnings", stderr, Python).
#include <string>
#include <vector>

#include "forward/types.h"
#include "optim/fit_loss.h"
#include "optim/fit_uncertainty.h"
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

// The end cost against what the observations' noise explains, for the squared-distance
// point costs (closest, sdf without Huber): cost = sum over frames of w_f mean(d^2 / 2),
// so the RMS point distance is sqrt(2 cost / sum w_f). A warning when it exceeds 3 sigma
// (the points' noise, when known) or, with no noise known, kMaxResidualFraction of the
// body's size: the scene (shape, ground, motion) does not match the capture.
constexpr double kMaxResidualFraction = 0.05;
std::vector<std::string> fitResidualWarnings(double cost, double weightSum, double sigma, double bodySize);

// The points' noise sigma of a fit: `noiseSigma` when > 0 (the fit's own option), else
// the observation folder's noise.json "median_sigma" (as reconstruct writes it), else 0.
double observationNoiseSigma(double noiseSigma, const std::string& folder);

// The same for a fit of `observations` ending at `cost`: the frames' weights (frames with
// points), the body's rest bounding-box diagonal, and sigma = the fit's noise sigma or
// else the capture folder's noise.json "median_sigma" (as reconstruct writes it). No
// warning for the costs that are no squared distances (mixture, pixel, Huber).
std::vector<std::string> fitResidualWarnings(const FitObservations& observations, const std::string& folder,
                                             double cost, double noiseSigma, const PhysicalModel& model);

// All three: what every front end reports next to "converged" for a fit ending at
// `values` (physical) with `cost`: the end point's, the residual's, and the parameters
// the capture does not identify (uncertaintyWarnings, fit_uncertainty.h).
std::vector<std::string> fitWarnings(const std::vector<std::string>& names, const VecX& values,
                                     const TransformSet& transforms, const FitObservations& observations,
                                     const std::string& folder, double cost, double noiseSigma,
                                     const PhysicalModel& model, const FitUncertainty& uncertainty);

}  // namespace softfit
