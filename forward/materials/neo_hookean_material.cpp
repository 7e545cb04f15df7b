#include "forward/materials/neo_hookean_material.h"

#include <cmath>
#include <stdexcept>

#include "forward/math/determinant.h"

namespace softfit {

NeoHookeanMaterial::NeoHookeanMaterial(double minJ) : minJ_(minJ) {
  if (!(minJ > 0.0 && minJ < 1.0))
    throw std::invalid_argument("NeoHookeanMaterial: minJ must be in (0, 1)");
}

NeoHookeanMaterial::SafeLog NeoHookeanMaterial::safeLog(double J) const {
  if (J >= minJ_) return {std::log(J), 1.0 / J, -1.0 / (J * J)};
  const double d = J - minJ_;
  const double inv = 1.0 / minJ_;
  return {std::log(minJ_) + d * inv - 0.5 * d * d * inv * inv, inv - d * inv * inv, -inv * inv};
}

double NeoHookeanMaterial::energyDensity(const Mat3& F, const LameParameters& p) const {
  const SafeLog l = safeLog(F.determinant());
  return 0.5 * p.mu * (F.squaredNorm() - 3.0) - p.mu * l.value + 0.5 * p.lambda * l.value * l.value;
}

Mat3 NeoHookeanMaterial::firstPiola(const Mat3& F, const LameParameters& p) const {
  // P = mu F + g'(J) cof(F), g(J) = -mu l + lambda/2 l^2
  const SafeLog l = safeLog(F.determinant());
  const double g1 = (p.lambda * l.value - p.mu) * l.d1;
  return p.mu * F + g1 * cofactor(F);
}

double NeoHookeanMaterial::energyAndFirstPiola(const Mat3& F, const LameParameters& p, Mat3& P) const {
  const SafeLog l = safeLog(F.determinant());
  P = p.mu * F + ((p.lambda * l.value - p.mu) * l.d1) * cofactor(F);
  return 0.5 * p.mu * (F.squaredNorm() - 3.0) - p.mu * l.value + 0.5 * p.lambda * l.value * l.value;
}

Mat9 NeoHookeanMaterial::firstPiolaDerivative(const Mat3& F, const LameParameters& p) const {
  // dP = mu dF + g''(J) (cof:dF) cof + g'(J) d cof
  const SafeLog l = safeLog(F.determinant());
  const double g1 = (p.lambda * l.value - p.mu) * l.d1;
  const double g2 = p.lambda * l.d1 * l.d1 + (p.lambda * l.value - p.mu) * l.d2;
  const Vec9 c = flatten(cofactor(F));
  Mat9 H = g1 * determinantHessian(F);
  H.noalias() += g2 * (c * c.transpose());
  H.diagonal().array() += p.mu;
  return H;
}

std::array<double, 2> NeoHookeanMaterial::energyParameterDerivative(const Mat3& F, const LameParameters&) const {
  const SafeLog l = safeLog(F.determinant());
  return {0.5 * (F.squaredNorm() - 3.0) - l.value, 0.5 * l.value * l.value};
}

std::array<Mat3, 2> NeoHookeanMaterial::firstPiolaParameterDerivative(const Mat3& F, const LameParameters&) const {
  const SafeLog l = safeLog(F.determinant());
  const Mat3 C = cofactor(F);
  return {F - l.d1 * C, (l.value * l.d1) * C};
}

}  // namespace softfit
