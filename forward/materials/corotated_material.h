#pragma once
#include "forward/materials/material.h"

namespace softfit {

// Fixed (nonlinear) corotated elasticity (Stomakhin et al. 2012):
//   Psi = mu ||F - R||_F^2 + lambda/2 (J - 1)^2,  R = polarRotation(F), J = det F,
//   P = 2 mu (F - R) + lambda (J - 1) cof(F).
// Defined for inverted F (R from the sign-fixed SVD stays a rotation).
class CorotatedMaterial final : public Material {
 public:
  double energyDensity(const Mat3& F, const LameParameters& p) const override;
  Mat3 firstPiola(const Mat3& F, const LameParameters& p) const override;
  Mat9 firstPiolaDerivative(const Mat3& F, const LameParameters& p) const override;
  std::array<double, 2> energyParameterDerivative(const Mat3& F, const LameParameters& p) const override;
  std::array<Mat3, 2> firstPiolaParameterDerivative(const Mat3& F, const LameParameters& p) const override;
};

}  // namespace softfit
