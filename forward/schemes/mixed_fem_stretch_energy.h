#pragma once
// Elastic energy densities written in the symmetric stretch s (mixed FEM). With
// F = R S: I_C = tr(F^T F) = tr(S^2), J = det F = det S, ||F - R||^2 = ||S - I||^2, so
// each is exactly the F-based model of forward/materials at S = s(F):
//   StableNeoHookean: Psi(s) = StableNeoHookeanMaterial::energyDensity(S)
//   Corotated:        Psi(s) = mu ||S - I||^2 + lambda/2 (det S - 1)^2
//   ARAP:             Psi(s) = mu ||S - I||^2
// Gradient and Hessian are with respect to the 6 Voigt entries (off-diagonals count
// twice in S): g = P^T dPsi/dvec(S), H = P^T d2Psi/dvec(S)^2 P.
#include <memory>

#include "forward/materials/material.h"
#include "forward/schemes/mixed_fem_stretch.h"

namespace softfit {

class StretchEnergy {
 public:
  virtual ~StretchEnergy() = default;
  virtual double energy(const Vec6& s, const LameParameters& p) const = 0;
  virtual Vec6 gradient(const Vec6& s, const LameParameters& p) const = 0;
  virtual Mat6 hessian(const Vec6& s, const LameParameters& p) const = 0;
};

// Throws InputError (naming `field`) for materials without a stretch form.
std::unique_ptr<StretchEnergy> makeStretchEnergy(MaterialModel model, const std::string& field = "material.model");

}  // namespace softfit
