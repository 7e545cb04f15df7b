#include "forward/materials/material.h"

#include <cmath>
#include <stdexcept>

#include "forward/errors.h"
#include "forward/value_limits.h"
#include "forward/materials/arap_material.h"
#include "forward/materials/corotated_material.h"
#include "forward/materials/linear_material.h"
#include "forward/materials/neo_hookean_material.h"
#include "forward/materials/stable_neo_hookean_material.h"
#include "forward/materials/stvk_material.h"

namespace softfit {

namespace {

struct ModelName {
  MaterialModel model;
  const char* name;
};

constexpr ModelName kModelNames[] = {
    {MaterialModel::Linear, "linear"},
    {MaterialModel::WarpedCorotated, "warped_corotated"},
    {MaterialModel::Corotated, "corotated"},
    {MaterialModel::NeoHookean, "neo_hookean"},
    {MaterialModel::StableNeoHookean, "stable_neo_hookean"},
    {MaterialModel::StVK, "stvk"},
    {MaterialModel::ARAP, "arap"},
};

}  // namespace

LameParameters lameFromYoungPoisson(double youngs, double poisson, const std::string& field) {
  // Only the physical domain here (a fit's trial points pass through too); readers of
  // input check kYoungsModulusRange (forward/value_limits.h).
  if (!std::isfinite(youngs) || youngs <= 0.0)
    throw InputError(field + ".youngs_modulus = " + formatValue(youngs) + ": must be a finite number > 0");
  requireInRange(poisson, kPoissonRatioRange, field + ".poisson_ratio");
  LameParameters p;
  p.mu = youngs / (2.0 * (1.0 + poisson));
  p.lambda = youngs * poisson / ((1.0 + poisson) * (1.0 - 2.0 * poisson));
  return p;
}

YoungPoisson youngPoissonFromLame(const LameParameters& p) {
  return {p.mu * (3.0 * p.lambda + 2.0 * p.mu) / (p.lambda + p.mu), p.lambda / (2.0 * (p.lambda + p.mu))};
}

YoungPoisson youngPoissonGradient(const LameParameters& p, double muBar, double lambdaBar) {
  const YoungPoisson m = youngPoissonFromLame(p);
  const double E = m.youngs, nu = m.poisson, d = (1.0 + nu) * (1.0 - 2.0 * nu);
  return {muBar / (2.0 * (1.0 + nu)) + lambdaBar * nu / d,
          -muBar * E / (2.0 * (1.0 + nu) * (1.0 + nu)) + lambdaBar * E * (1.0 + 2.0 * nu * nu) / (d * d)};
}

MaterialModel parseMaterialModel(const std::string& name, const std::string& field) {
  std::string valid;
  for (const ModelName& entry : kModelNames) {
    if (name == entry.name) return entry.model;
    valid += valid.empty() ? "" : ", ";
    valid += entry.name;
  }
  throw InputError(field + " = '" + name + "': unknown material model (valid: " + valid + ")");
}

std::string materialModelName(MaterialModel model) {
  for (const ModelName& entry : kModelNames)
    if (entry.model == model) return entry.name;
  return "unknown";
}

std::unique_ptr<Material> makeMaterial(MaterialModel model) {
  switch (model) {
    case MaterialModel::Linear:
    case MaterialModel::WarpedCorotated: return std::make_unique<LinearMaterial>();
    case MaterialModel::Corotated: return std::make_unique<CorotatedMaterial>();
    case MaterialModel::NeoHookean: return std::make_unique<NeoHookeanMaterial>();
    case MaterialModel::StableNeoHookean: return std::make_unique<StableNeoHookeanMaterial>();
    case MaterialModel::StVK: return std::make_unique<StVKMaterial>();
    case MaterialModel::ARAP: return std::make_unique<ArapMaterial>();
  }
  throw std::invalid_argument("makeMaterial: invalid MaterialModel value");
}

}  // namespace softfit
