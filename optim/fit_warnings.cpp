#include "optim/fit_warnings.h"

#include <cmath>
#include <cstdio>

#include <filesystem>

#include "adjoint/parameter_descriptor.h"
#include "forward/io/json_fields.h"
#include "forward/value_limits.h"

namespace softfit {

std::vector<std::string> fitEndWarnings(const std::vector<std::string>& names, const VecX& values,
                                        const TransformSet& transforms) {
  std::vector<std::string> warnings;
  for (std::size_t i = 0; i < names.size(); ++i) {
    const double v = values[static_cast<Eigen::Index>(i)];
    const std::string where = names[i] + " = " + formatValue(v);
    const std::string k = parameterKind(names[i]);
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

double observationNoiseSigma(double noiseSigma, const std::string& folder) {
  if (noiseSigma > 0.0) return noiseSigma;
  const std::filesystem::path noiseFile = std::filesystem::path(folder) / "noise.json";
  std::error_code ec;
  if (!std::filesystem::is_regular_file(noiseFile, ec)) return 0.0;
  try {
    const nlohmann::json noise = readJsonFile(noiseFile.string());
    if (noise.is_object() && noise.contains("median_sigma") && noise["median_sigma"].is_number()) {
      const double sigma = noise["median_sigma"].get<double>();
      return std::isfinite(sigma) && sigma > 0.0 ? sigma : 0.0;
    }
  } catch (const InputError&) {
    // Only a report's threshold and scale: an unreadable file counts as no noise known.
  }
  return 0.0;
}

std::vector<std::string> fitResidualWarnings(double cost, double weightSum, double sigma, double bodySize) {
  if (!(weightSum > 0.0) || !(cost >= 0.0)) return {};
  const double rms = std::sqrt(2.0 * cost / weightSum);
  char text[320];
  if (sigma > 0.0 && rms > 3.0 * sigma) {
    std::snprintf(text, sizeof text,
                  "the RMS point distance at the end, %.3g m, is %.1f times the points' noise sigma %.3g m: the model "
                  "does not explain the observations (the wrong scene, shape, ground or motion?)",
                  rms, rms / sigma, sigma);
    return {text};
  }
  if (!(sigma > 0.0) && bodySize > 0.0 && rms > kMaxResidualFraction * bodySize) {
    std::snprintf(text, sizeof text,
                  "the RMS point distance at the end, %.3g m, is %.0f%% of the body's size (%.3g m): the model does "
                  "not explain the observations (the wrong scene, shape, ground or motion?)",
                  rms, 100.0 * rms / bodySize, bodySize);
    return {text};
  }
  return {};
}

std::vector<std::string> fitResidualWarnings(const FitObservations& observations, const std::string& folder,
                                             double cost, double noiseSigma, const PhysicalModel& model) {
  if (!observations.capture || !(observations.cost == "closest" || observations.cost == "sdf") ||
      observations.lossOptions.huberDelta > 0.0)
    return {};
  double weights = 0.0;
  for (const CaptureFrame& f : observations.capture->frames)
    if (!f.cloud.empty()) weights += f.weight;
  const double sigma = observationNoiseSigma(noiseSigma, folder);
  const VecX& rest = model.restPositions();
  const Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, 3, Eigen::RowMajor>> points(rest.data(), rest.size() / 3, 3);
  const double size = rest.size() >= 3 ? (points.colwise().maxCoeff() - points.colwise().minCoeff()).norm() : 0.0;
  return fitResidualWarnings(cost, weights, sigma, size);
}

std::vector<std::string> fitWarnings(const std::vector<std::string>& names, const VecX& values,
                                     const TransformSet& transforms, const FitObservations& observations,
                                     const std::string& folder, double cost, double noiseSigma,
                                     const PhysicalModel& model, const FitUncertainty& uncertainty) {
  std::vector<std::string> warnings = fitEndWarnings(names, values, transforms);
  for (std::string& w : fitResidualWarnings(observations, folder, cost, noiseSigma, model))
    warnings.push_back(std::move(w));
  for (std::string& w : uncertaintyWarnings(names, values, transforms, uncertainty)) warnings.push_back(std::move(w));
  return warnings;
}

}  // namespace softfit
