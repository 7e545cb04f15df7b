#include "forward/math/polar_decomposition.h"

#include <Eigen/LU>
#include <Eigen/SVD>
#include <algorithm>
#include <cmath>

namespace softfit {

SignedSvd signedSvd(const Mat3& F) {
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
