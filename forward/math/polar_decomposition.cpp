#include "forward/math/polar_decomposition.h"

#include <Eigen/Eigenvalues>
#include <Eigen/LU>
#include <Eigen/SVD>
#include <algorithm>
#include <cmath>

namespace softfit {

namespace {

// Accept the closed-form SVD when U^T F V is diagonal to this, relative to sigma_0: the
// factorization is then backward stable as JacobiSVD's (whose own stopping test is
// 2 eps relative per pair). Round-off in U^T F V itself is a few eps.
constexpr double kClosedFormOffDiagonal = 1e-14;

// V from F^T F's eigenvectors (Eigen's closed-form 3x3 eigensolver), U from F V by
// Gram-Schmidt and a cross product, sigma = diag(U^T F V): ~3x faster than JacobiSVD.
// Refused (false) where F^T F's eigenvectors are not accurate enough (the check above),
// where F has rank < 2, or where the diagonal comes out of order in round-off.
bool closedFormSignedSvd(const Mat3& F, SignedSvd& out) {
  Eigen::SelfAdjointEigenSolver<Mat3> eigen;
  eigen.computeDirect(F.transpose() * F);  // eigenvalues ascending
  const Mat3& W = eigen.eigenvectors();
  Mat3 U, V;
  V.col(0) = W.col(2);
  V.col(1) = (W.col(1) - W.col(2).dot(W.col(1)) * W.col(2)).normalized();
  V.col(2) = V.col(0).cross(V.col(1));  // det V = +1
  const Vec3 b0 = F * V.col(0);
  const double s0 = b0.norm();
  if (!(s0 > 0.0) || !std::isfinite(s0)) return false;
  U.col(0) = b0 / s0;
  Vec3 b1 = F * V.col(1);
  b1 -= U.col(0).dot(b1) * U.col(0);
  const double s1 = b1.norm();
  if (!(s1 > 1e-8 * s0)) return false;
  U.col(1) = b1 / s1;
  U.col(2) = U.col(0).cross(U.col(1));  // det U = +1, so sigma(2) carries det F's sign
  const Mat3 M = U.transpose() * F * V;
  const double bound = kClosedFormOffDiagonal * s0;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      if (i != j && !(std::abs(M(i, j)) <= bound)) return false;
  const Vec3 sigma = M.diagonal();
  if (!(sigma(0) >= sigma(1) && sigma(1) >= std::abs(sigma(2)))) return false;
  out = SignedSvd{U, sigma, V};
  return true;
}

SignedSvd jacobiSignedSvd(const Mat3& F) {
  const Eigen::JacobiSVD<Mat3> svd(F, Eigen::ComputeFullU | Eigen::ComputeFullV);
  SignedSvd out{svd.matrixU(), svd.singularValues(), svd.matrixV()};
  // Singular values come sorted descending, so the sign goes onto the smallest one.
  if (out.U.determinant() < 0.0) {
    out.U.col(2) *= -1.0;
    out.sigma(2) *= -1.0;
  }
  if (out.V.determinant() < 0.0) {
    out.V.col(2) *= -1.0;
    out.sigma(2) *= -1.0;
  }
  return out;
}

}  // namespace

SignedSvd signedSvd(const Mat3& F) {
  SignedSvd out;
  if (closedFormSignedSvd(F, out)) return out;
  return jacobiSignedSvd(F);
}

bool signedSvdIsClosedForm(const Mat3& F) {
  SignedSvd unused;
  return closedFormSignedSvd(F, unused);
}

Mat3 polarRotation(const SignedSvd& svd) { return svd.U * svd.V.transpose(); }

Mat3 polarRotation(const Mat3& F) { return polarRotation(signedSvd(F)); }

PolarTwists polarRotationTwists(const SignedSvd& svd) {
  const double floor = kPolarDenominatorFloor * std::max(svd.sigma(0), 1.0);
  PolarTwists out;
  constexpr int kPairs[3][2] = {{0, 1}, {0, 2}, {1, 2}};
  for (int k = 0; k < 3; ++k) {
    const int i = kPairs[k][0], j = kPairs[k][1];
    // With the unit twist t / sqrt(2): 2/(s_i+s_j) (t/sqrt2)(t/sqrt2)^T = (1/denom) t t^T.
    out.twist[k] = svd.U.col(i) * svd.V.col(j).transpose() - svd.U.col(j) * svd.V.col(i).transpose();
    out.weight(k) = 1.0 / std::max(svd.sigma(i) + svd.sigma(j), floor);
  }
  return out;
}

Mat9 polarRotationDerivative(const SignedSvd& svd) {
  const PolarTwists twists = polarRotationTwists(svd);
  Mat9 dR = Mat9::Zero();
  for (int k = 0; k < 3; ++k) {
    const Vec9 t = flatten(twists.twist[k]);
    dR.noalias() += twists.weight(k) * (t * t.transpose());
  }
  return dR;
}

Mat9 polarRotationDerivative(const Mat3& F) { return polarRotationDerivative(signedSvd(F)); }

}  // namespace softfit
