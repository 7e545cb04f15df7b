#pragma once
#include "forward/materials/material.h"

namespace softfit {

// Small-strain linear elasticity: eps = (F + F^T)/2 - I, P = 2 mu eps + lambda tr(eps) I.
class LinearMaterial final : public Material {
 public:
  double energyDensity(const Mat3& F, const LameParameters& p) const override;
  Mat3 firstPiola(const Mat3& F, const LameParameters& p) const override;
  Mat9 firstPiolaDerivative(const Mat3& F, const LameParameters& p) const override;
  std::array<double, 2> energyParameterDerivative(const Mat3& F, const LameParameters& p) const override;
  std::array<Mat3, 2> firstPiolaParameterDerivative(const Mat3& F, const LameParameters& p) const override;
};

}  // namespace softfit
