#include "forward/schemes/mixed_fem_stretch.h"

#include "forward/math/polar_decomposition.h"

namespace softfit {

namespace {
constexpr int kRow[6] = {0, 0, 0, 1, 1, 2};
constexpr int kCol[6] = {0, 1, 2, 1, 2, 2};
}  // namespace

Vec6 voigtFromSymmetric(const Mat3& S) {
  Vec6 s;
  for (int k = 0; k < 6; ++k) s[k] = S(kRow[k], kCol[k]);
  return s;
}

Mat3 symmetricFromVoigt(const Vec6& s) {
  Mat3 S;
  for (int k = 0; k < 6; ++k) S(kRow[k], kCol[k]) = S(kCol[k], kRow[k]) = s[k];
  return S;
}

const Mat96& symmetricExpansion() {
  static const Mat96 P = [] {
    Mat96 m = Mat96::Zero();
    for (int k = 0; k < 6; ++k) {
      m(kRow[k] + 3 * kCol[k], k) = 1.0;
      m(kCol[k] + 3 * kRow[k], k) = 1.0;
    }
    return m;
  }();
  return P;
}

Vec6 stretchOf(const Mat3& F) {
  const SignedSvd svd = signedSvd(F);
  return voigtFromSymmetric(svd.V * svd.sigma.asDiagonal() * svd.V.transpose());
}

Mat69 stretchDerivative(const Mat3& F) {
  const SignedSvd svd = signedSvd(F);
  const Mat3 R = polarRotation(svd);
  const Mat9 dR = polarRotationDerivative(svd);
  Mat69 out;
  for (int c = 0; c < 9; ++c) {
    // dS = dR^T F + R^T dF with dF = e_c (column-major unit matrix).
    Mat3 dS = unflatten(dR.col(c)).transpose() * F;
    dS.col(c / 3) += R.row(c % 3).transpose();  // R^T E_{(c%3),(c/3)} puts R^T's column c%3 into column c/3
    // Symmetrize (exact in theory; removes round-off).
    out.col(c) = voigtFromSymmetric(0.5 * (dS + dS.transpose()));
  }
  return out;
}

MatX deformationGradientJacobian(const Element& e, const QuadraturePoint& q) {
  const int n = e.nodeCount();
  MatX dF = MatX::Zero(9, 3 * n);
  // F_ij = sum_a x_a,i dN_a,j ; vec index i + 3 j.
  for (int a = 0; a < n; ++a)
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) dF(i + 3 * j, 3 * a + i) = q.dNdX(a, j);
  return dF;
}

MatX stretchJacobian(const Element& e, const QuadraturePoint& q, const Mat3& F) {
  return stretchDerivative(F) * deformationGradientJacobian(e, q);
}

}  // namespace softfit
