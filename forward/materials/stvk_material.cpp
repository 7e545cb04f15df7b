#include "forward/materials/stvk_material.h"

namespace softfit {

namespace {
Mat3 greenStrain(const Mat3& F) { return 0.5 * (F.transpose() * F - Mat3::Identity()); }
}  // namespace

double StVKMaterial::energyDensity(const Mat3& F, const LameParameters& p) const {
  const Mat3 E = greenStrain(F);
  const double tr = E.trace();
  return p.mu * E.squaredNorm() + 0.5 * p.lambda * tr * tr;
}

Mat3 StVKMaterial::firstPiola(const Mat3& F, const LameParameters& p) const {
  const Mat3 E = greenStrain(F);
  return F * (2.0 * p.mu * E + p.lambda * E.trace() * Mat3::Identity());
}

Mat9 StVKMaterial::firstPiolaDerivative(const Mat3& F, const LameParameters& p) const {
  // dP = dF S + F dS, dS = 2 mu dE + lambda tr(dE) I, dE = (dF^T F + F^T dF)/2.
  // Column (i + 3 j) is dP for dF = e_i e_j^T.
  const Mat3 E = greenStrain(F);
  const Mat3 S = 2.0 * p.mu * E + p.lambda * E.trace() * Mat3::Identity();
  Mat9 H;
  for (int j = 0; j < 3; ++j)
    for (int i = 0; i < 3; ++i) {
      // dE = (e_j F.row(i) + F.row(i)^T e_j^T)/2, tr(dE) = F(i, j)
      Mat3 dE = Mat3::Zero();
      dE.row(j) += 0.5 * F.row(i);
      dE.col(j) += 0.5 * F.row(i).transpose();
      const Mat3 dS = 2.0 * p.mu * dE + p.lambda * F(i, j) * Mat3::Identity();
      Mat3 dP = F * dS;
      dP.row(i) += S.row(j);
      H.col(i + 3 * j) = flatten(dP);
    }
  return H;
}

std::array<double, 2> StVKMaterial::energyParameterDerivative(const Mat3& F, const LameParameters&) const {
  const Mat3 E = greenStrain(F);
  const double tr = E.trace();
  return {E.squaredNorm(), 0.5 * tr * tr};
}

std::array<Mat3, 2> StVKMaterial::firstPiolaParameterDerivative(const Mat3& F, const LameParameters&) const {
  const Mat3 E = greenStrain(F);
  return {2.0 * F * E, E.trace() * F};
}

}  // namespace softfit
