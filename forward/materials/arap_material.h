#pragma once
#include "forward/materials/material.h"

namespace softfit {

// As-rigid-as-possible: Psi = mu ||F - R||_F^2, R = polarRotation(F), P = 2 mu (F - R).
// lambda is ignored (no volume term); its derivatives are zero.
class ArapMaterial final : public Material {
 public:
  double energyDensity(const Mat3& F, const LameParameters& p) const override;
  Mat3 firstPiola(const Mat3& F, const LameParameters& p) const override;
  Mat9 firstPiolaDerivative(const Mat3& F, const LameParameters& p) const override;
  std::array<double, 2> energyParameterDerivative(const Mat3& F, const LameParameters& p) const override;
  std::array<Mat3, 2> firstPiolaParameterDerivative(const Mat3& F, const LameParameters& p) const override;
};

}  // namespace softfit
