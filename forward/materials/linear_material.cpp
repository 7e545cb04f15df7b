#include "forward/materials/linear_material.h"

namespace softfit {

namespace {
Mat3 smallStrain(const Mat3& F) { return 0.5 * (F + F.transpose()) - Mat3::Identity(); }
}  // namespace

double LinearMaterial::energyDensity(const Mat3& F, const LameParameters& p) const {
  const Mat3 eps = smallStrain(F);
  const double tr = eps.trace();
  return p.mu * eps.squaredNorm() + 0.5 * p.lambda * tr * tr;
}

Mat3 LinearMaterial::firstPiola(const Mat3& F, const LameParameters& p) const {
  const Mat3 eps = smallStrain(F);
  return 2.0 * p.mu * eps + p.lambda * eps.trace() * Mat3::Identity();
}

Mat9 LinearMaterial::firstPiolaDerivative(const Mat3& /*F*/, const LameParameters& p) const {
  // dP = mu (dF + dF^T) + lambda tr(dF) I
  Mat9 H = Mat9::Zero();
  for (int j = 0; j < 3; ++j)
    for (int i = 0; i < 3; ++i) {
      const int c = i + 3 * j;  // column-major index of F(i,j)
      H(c, c) += p.mu;
      H(j + 3 * i, c) += p.mu;  // transpose contribution
    }
  for (int i = 0; i < 3; ++i)
    for (int k = 0; k < 3; ++k) H(i + 3 * i, k + 3 * k) += p.lambda;
  return H;
}

std::array<double, 2> LinearMaterial::energyParameterDerivative(const Mat3& F, const LameParameters&) const {
  const Mat3 eps = smallStrain(F);
  const double tr = eps.trace();
  return {eps.squaredNorm(), 0.5 * tr * tr};
}

std::array<Mat3, 2> LinearMaterial::firstPiolaParameterDerivative(const Mat3& F, const LameParameters&) const {
  const Mat3 eps = smallStrain(F);
  return {2.0 * eps, eps.trace() * Mat3::Identity()};
}

}  // namespace softfit
