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

Mat9 polarRotationDerivative(const SignedSvd& svd) {
  const double floor = kPolarDenominatorFloor * std::max(svd.sigma(0), 1.0);
  Mat9 dR = Mat9::Zero();
  constexpr int kPairs[3][2] = {{0, 1}, {0, 2}, {1, 2}};
  for (const auto& pair : kPairs) {
    const int i = pair[0], j = pair[1];
    // t = vec(u_i v_j^T - u_j v_i^T) / sqrt(2); accumulate 2/(s_i+s_j) t t^T.
    const Mat3 T = svd.U.col(i) * svd.V.col(j).transpose() - svd.U.col(j) * svd.V.col(i).transpose();
    const Vec9 t = flatten(T);
    const double denom = std::max(svd.sigma(i) + svd.sigma(j), floor);
    dR.noalias() += (1.0 / denom) * (t * t.transpose());  // (1/denom) = 2/denom * (1/sqrt2)^2
  }
  return dR;
}

Mat9 polarRotationDerivative(const Mat3& F) { return polarRotationDerivative(signedSvd(F)); }

}  // namespace softfit
