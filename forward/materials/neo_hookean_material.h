#pragma once
#include "forward/materials/material.h"

namespace softfit {

// Compressible neo-Hookean (Bonet & Wood):
//   Psi = mu/2 (tr(F^T F) - 3) - mu l(J) + lambda/2 l(J)^2,  J = det F,
// with l(J) = log J for J >= minJ and, for J < minJ (nearly degenerate or inverted
// elements), its second-order Taylor expansion around minJ:
//   l(J) = log minJ + (J - minJ)/minJ - (J - minJ)^2 / (2 minJ^2).
// l is C2 at minJ, so energy, stress and Hessian are continuous, finite for every F
// (including det F <= 0), and the energy still grows (quartically) as J decreases.
// Default minJ = 1e-2: the exact model is used down to 99% volume loss.
class NeoHookeanMaterial final : public Material {
 public:
  static constexpr double kDefaultMinJ = 1e-2;
  // Throws std::invalid_argument unless 0 < minJ < 1.
  explicit NeoHookeanMaterial(double minJ = kDefaultMinJ);

  double minJ() const { return minJ_; }

  double energyDensity(const Mat3& F, const LameParameters& p) const override;
  Mat3 firstPiola(const Mat3& F, const LameParameters& p) const override;
  double energyAndFirstPiola(const Mat3& F, const LameParameters& p, Mat3& P) const override;
  Mat9 firstPiolaDerivative(const Mat3& F, const LameParameters& p) const override;
  std::array<double, 2> energyParameterDerivative(const Mat3& F, const LameParameters& p) const override;
  std::array<Mat3, 2> firstPiolaParameterDerivative(const Mat3& F, const LameParameters& p) const override;

 private:
  struct SafeLog {
    double value, d1, d2;  // l(J), l'(J), l''(J)
  };
  SafeLog safeLog(double J) const;

  double minJ_;
};

}  // namespace softfit
