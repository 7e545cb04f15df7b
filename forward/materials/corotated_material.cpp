#include "forward/materials/corotated_material.h"

#include "forward/math/determinant.h"
#include "forward/math/polar_decomposition.h"

namespace softfit {

double CorotatedMaterial::energyDensity(const Mat3& F, const LameParameters& p) const {
  const double Jm1 = F.determinant() - 1.0;
  return p.mu * (F - polarRotation(F)).squaredNorm() + 0.5 * p.lambda * Jm1 * Jm1;
}

Mat3 CorotatedMaterial::firstPiola(const Mat3& F, const LameParameters& p) const {
  const double Jm1 = F.determinant() - 1.0;
  return 2.0 * p.mu * (F - polarRotation(F)) + p.lambda * Jm1 * cofactor(F);
}

Mat9 CorotatedMaterial::firstPiolaDerivative(const Mat3& F, const LameParameters& p) const {
  // dP = 2 mu (dF - dR) + lambda (cof:dF) cof + lambda (J - 1) d cof
  const Vec9 c = flatten(cofactor(F));
  const double Jm1 = F.determinant() - 1.0;
  Mat9 H = -2.0 * p.mu * polarRotationDerivative(F);
  H.diagonal().array() += 2.0 * p.mu;
  H.noalias() += p.lambda * (c * c.transpose());
  H.noalias() += (p.lambda * Jm1) * determinantHessian(F);
  return H;
}

std::array<double, 2> CorotatedMaterial::energyParameterDerivative(const Mat3& F, const LameParameters&) const {
  const double Jm1 = F.determinant() - 1.0;
  return {(F - polarRotation(F)).squaredNorm(), 0.5 * Jm1 * Jm1};
}

std::array<Mat3, 2> CorotatedMaterial::firstPiolaParameterDerivative(const Mat3& F, const LameParameters&) const {
  const double Jm1 = F.determinant() - 1.0;
  return {2.0 * (F - polarRotation(F)), Jm1 * cofactor(F)};
}

}  // namespace softfit
