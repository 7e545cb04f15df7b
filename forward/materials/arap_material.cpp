#include "forward/materials/arap_material.h"

#include "forward/math/polar_decomposition.h"

namespace softfit {

double ArapMaterial::energyDensity(const Mat3& F, const LameParameters& p) const {
  return p.mu * (F - polarRotation(F)).squaredNorm();
}

Mat3 ArapMaterial::firstPiola(const Mat3& F, const LameParameters& p) const {
  return 2.0 * p.mu * (F - polarRotation(F));
}

Mat9 ArapMaterial::firstPiolaDerivative(const Mat3& F, const LameParameters& p) const {
  // dP = 2 mu (dF - dR)
  Mat9 H = -2.0 * p.mu * polarRotationDerivative(F);
  H.diagonal().array() += 2.0 * p.mu;
  return H;
}

std::array<double, 2> ArapMaterial::energyParameterDerivative(const Mat3& F, const LameParameters&) const {
  return {(F - polarRotation(F)).squaredNorm(), 0.0};
}

std::array<Mat3, 2> ArapMaterial::firstPiolaParameterDerivative(const Mat3& F, const LameParameters&) const {
  return {2.0 * (F - polarRotation(F)), Mat3::Zero()};
}

}  // namespace softfit
