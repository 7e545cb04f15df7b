#pragma once
#include "forward/materials/material.h"

namespace softfit {

// St. Venant-Kirchhoff: E = (F^T F - I)/2, Psi = mu E:E + lambda/2 tr(E)^2,
// P = F S with S = 2 mu E + lambda tr(E) I. (Not stable under compression/inversion.)
class StVKMaterial final : public Material {
 public:
  double energyDensity(const Mat3& F, const LameParameters& p) const override;
  Mat3 firstPiola(const Mat3& F, const LameParameters& p) const override;
  Mat9 firstPiolaDerivative(const Mat3& F, const LameParameters& p) const override;
  std::array<double, 2> energyParameterDerivative(const Mat3& F, const LameParameters& p) const override;
  std::array<Mat3, 2> firstPiolaParameterDerivative(const Mat3& F, const LameParameters& p) const override;
};

}  // namespace softfit
