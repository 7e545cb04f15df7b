#include "forward/materials/stable_neo_hookean_material.h"

#include "forward/math/determinant.h"

namespace softfit {

namespace {
// Chen's volume stiffness lambda' = lambda + mu (see the header).
double volumeStiffness(const LameParameters& p) { return p.lambda + p.mu; }
}  // namespace

double StableNeoHookeanMaterial::energyDensity(const Mat3& F, const LameParameters& p) const {
  const double Jm1 = F.determinant() - 1.0;
  return 0.5 * p.mu * (F.squaredNorm() - 3.0) - p.mu * Jm1 + 0.5 * volumeStiffness(p) * Jm1 * Jm1;
}

Mat3 StableNeoHookeanMaterial::firstPiola(const Mat3& F, const LameParameters& p) const {
  const double Jm1 = F.determinant() - 1.0;
  return p.mu * F + (volumeStiffness(p) * Jm1 - p.mu) * cofactor(F);
}

Mat9 StableNeoHookeanMaterial::firstPiolaDerivative(const Mat3& F, const LameParameters& p) const {
  // dP = mu dF + lambda' (cof:dF) cof + (lambda' (J - 1) - mu) d cof
  const double Jm1 = F.determinant() - 1.0;
  const double la = volumeStiffness(p);
  const Vec9 c = flatten(cofactor(F));
  Mat9 H = (la * Jm1 - p.mu) * determinantHessian(F);
  H.noalias() += la * (c * c.transpose());
  H.diagonal().array() += p.mu;
  return H;
}

std::array<double, 2> StableNeoHookeanMaterial::energyParameterDerivative(const Mat3& F,
                                                                          const LameParameters&) const {
  const double Jm1 = F.determinant() - 1.0;
  return {0.5 * (F.squaredNorm() - 3.0) - Jm1 + 0.5 * Jm1 * Jm1, 0.5 * Jm1 * Jm1};
}

std::array<Mat3, 2> StableNeoHookeanMaterial::firstPiolaParameterDerivative(const Mat3& F,
                                                                            const LameParameters&) const {
  const double Jm1 = F.determinant() - 1.0;
  const Mat3 C = cofactor(F);
  return {F - C + Jm1 * C, Jm1 * C};
}

}  // namespace softfit
