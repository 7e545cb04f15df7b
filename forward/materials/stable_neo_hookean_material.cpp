#include "forward/materials/stable_neo_hookean_material.h"

#include <Eigen/Eigenvalues>
#include <cmath>

#include "forward/math/determinant.h"
#include "forward/math/polar_decomposition.h"

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

MaterialEigensystem stableNeoHookeanEigensystem(const Mat3& F, const LameParameters& p) {
  const SignedSvd svd = signedSvd(F);
  const Vec3& s = svd.sigma;
  const double la = volumeStiffness(p);
  const double J = s.prod();
  const double c = la * (J - 1.0) - p.mu;
  MaterialEigensystem eig;
  const double invSqrt2 = 1.0 / std::sqrt(2.0);
  const int pairs[3][3] = {{1, 2, 0}, {0, 2, 1}, {0, 1, 2}};  // (i, j, k)
  for (int m = 0; m < 3; ++m) {
    const int i = pairs[m][0], j = pairs[m][1], k = pairs[m][2];
    Mat3 twist = Mat3::Zero(), flip = Mat3::Zero();
    twist(i, j) = invSqrt2;
    twist(j, i) = -invSqrt2;
    flip(i, j) = invSqrt2;
    flip(j, i) = invSqrt2;
    eig.values[m] = p.mu + c * s[k];
    eig.vectors.col(m) = flatten(svd.U * twist * svd.V.transpose());
    eig.values[3 + m] = p.mu - c * s[k];
    eig.vectors.col(3 + m) = flatten(svd.U * flip * svd.V.transpose());
  }
  // Scaling modes: the 3x3 Hessian of Psi(s) = mu/2 |s|^2 - mu (J - 1) + lambda'/2 (J - 1)^2.
  Mat3 A;
  for (int i = 0; i < 3; ++i) {
    const double Ji = s[(i + 1) % 3] * s[(i + 2) % 3];  // dJ/ds_i
    A(i, i) = p.mu + la * Ji * Ji;
    for (int j = i + 1; j < 3; ++j) {
      const int k = 3 - i - j;
      A(i, j) = A(j, i) = s[k] * (c + la * J);
    }
  }
  const Eigen::SelfAdjointEigenSolver<Mat3> small(A);
  for (int m = 0; m < 3; ++m) {
    eig.values[6 + m] = small.eigenvalues()[m];
    eig.vectors.col(6 + m) = flatten(svd.U * small.eigenvectors().col(m).asDiagonal() * svd.V.transpose());
  }
  return eig;
}

}  // namespace softfit
