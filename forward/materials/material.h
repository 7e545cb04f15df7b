#pragma once
// Hyperelastic material models: energy density Psi(F), first Piola-Kirchhoff stress
// P = dPsi/dF and its derivative dP/dF (9x9 on column-major vec(F)), plus the
// derivatives with respect to the Lame parameters (mu, lambda) that the adjoint needs.
#include <array>
#include <memory>
#include <string>

#include "forward/types.h"

namespace softfit {

struct LameParameters {
  double mu = 0.0;
  double lambda = 0.0;
};

// mu = E / (2 (1 + nu)), lambda = E nu / ((1 + nu)(1 - 2 nu)).
// Throws InputError naming `field` when E <= 0, nu <= -1, nu >= 0.5 or either is not finite.
LameParameters lameFromYoungPoisson(double youngs, double poisson, const std::string& field = "material");

struct YoungPoisson {
  double youngs = 0.0;
  double poisson = 0.0;
};
// The inverse: E = mu (3 lambda + 2 mu) / (lambda + mu), nu = lambda / (2 (lambda + mu)).
YoungPoisson youngPoissonFromLame(const LameParameters& p);
// The chain rule through lameFromYoungPoisson at p: (dL/dE, dL/dnu) from (dL/dmu, dL/dlambda),
//   dL/dE  = mu' / (2 (1 + nu)) + lambda' nu / d,
//   dL/dnu = -mu' E / (2 (1 + nu)^2) + lambda' E (1 + 2 nu^2) / d^2,   d = (1 + nu)(1 - 2 nu).
YoungPoisson youngPoissonGradient(const LameParameters& p, double muBar, double lambdaBar);

enum class MaterialModel {
  Linear,            // small strain: Psi = mu eps:eps + lambda/2 tr(eps)^2
  WarpedCorotated,   // linear in the element frame R^T F, R from the lagged state (thesis)
  Corotated,         // nonlinear: mu ||F - R||^2 + lambda/2 (J - 1)^2
  NeoHookean,        // mu/2 (I_C - 3) - mu log J + lambda/2 log^2 J, safe extension for J <= eps
  StableNeoHookean,  // Smith et al. 2018: mu/2 (I_C - 3) + lambda/2 (J - 1 - mu/lambda)^2 (Chen form)
  StVK,              // mu E:E + lambda/2 tr(E)^2, E = (F^T F - I)/2
  ARAP,              // mu ||F - R||^2
};

// Parses "linear", "warped_corotated", "corotated", "neo_hookean", "stable_neo_hookean",
// "stvk", "arap"; throws InputError naming `field` otherwise.
MaterialModel parseMaterialModel(const std::string& name, const std::string& field = "material.model");
std::string materialModelName(MaterialModel model);

class Material {
 public:
  virtual ~Material() = default;
  virtual double energyDensity(const Mat3& F, const LameParameters& p) const = 0;
  virtual Mat3 firstPiola(const Mat3& F, const LameParameters& p) const = 0;
  // Psi(F), with P(F) written to `P`: one call where both are needed (models override it
  // to share the work, e.g. det F and its logarithm).
  virtual double energyAndFirstPiola(const Mat3& F, const LameParameters& p, Mat3& P) const {
    P = firstPiola(F, p);
    return energyDensity(F, p);
  }
  // d vec(P) / d vec(F), column-major vec. Exact (not PSD-projected).
  virtual Mat9 firstPiolaDerivative(const Mat3& F, const LameParameters& p) const = 0;
  // {dPsi/dmu, dPsi/dlambda}
  virtual std::array<double, 2> energyParameterDerivative(const Mat3& F, const LameParameters& p) const = 0;
  // {dP/dmu, dP/dlambda}
  virtual std::array<Mat3, 2> firstPiolaParameterDerivative(const Mat3& F, const LameParameters& p) const = 0;
};

// The point-wise model for `model`. WarpedCorotated returns the linear model: the
// element rotation is applied by the elastic energy (forward/energies/elastic_energy.h).
std::unique_ptr<Material> makeMaterial(MaterialModel model);

}  // namespace softfit
