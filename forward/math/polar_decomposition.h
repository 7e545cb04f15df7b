#pragma once
// Polar decomposition F = R S (R a proper rotation, S symmetric) and the analytic
// derivative d vec(R) / d vec(F), both from a sign-fixed ("rotation-variant") SVD
// F = U diag(sigma) V^T with det U = det V = +1 (Irving et al. 2004). For inverted F
// (det F < 0) the smallest singular value is negative, so R stays a rotation and
// S = V diag(sigma) V^T is symmetric but indefinite.
#include "forward/types.h"

namespace softfit {

struct SignedSvd {
  Mat3 U;        // rotation, det U = +1
  Vec3 sigma;    // sigma(0) >= sigma(1) >= |sigma(2)|; sigma(2) < 0 iff det F < 0
  Mat3 V;        // rotation, det V = +1
};

// SVD of F with the sign fix above, deterministic. V comes from F^T F's eigenvectors
// (Eigen's closed-form 3x3 eigensolver), U from F V; that is accepted when U^T F V is
// diagonal to 1e-14 sigma_0 (as accurate as JacobiSVD, ~3x faster). Otherwise (F of rank
// < 2, F^T F's eigenvectors resolved too coarsely, singular values out of order in
// round-off) it is Eigen's two-sided JacobiSVD.
SignedSvd signedSvd(const Mat3& F);
// Whether signedSvd(F) takes the closed form (for tests).
bool signedSvdIsClosedForm(const Mat3& F);

// R = U V^T: the rotation of F = R S, det R = +1.
Mat3 polarRotation(const Mat3& F);
Mat3 polarRotation(const SignedSvd& svd);

// d vec(R) / d vec(F) (column-major vec, 9x9). With A = U^T dF V,
//   dR = U Omega V^T,  Omega_ij = (A_ij - A_ji) / (sigma_i + sigma_j)  (i != j),
// i.e. dR/dF = sum_{i<j} 2 / (sigma_i + sigma_j) t_ij t_ij^T with the unit "twist"
// modes t_ij = vec(U (e_i e_j^T - e_j e_i^T) V^T) / sqrt(2). The result is symmetric
// and independent of how U, V are chosen for repeated singular values.
//
// Degeneracy: sigma_i + sigma_j >= 0 always, and it is 0 only where R itself is not
// unique (two singular values vanish, or an inverted F with sigma_1 = -sigma_2). Each
// denominator is clamped from below by kPolarDenominatorFloor * max(sigma_0, 1), so the
// derivative stays finite (entries at most ~2e10 for F of unit scale) instead of inf/NaN.
constexpr double kPolarDenominatorFloor = 1e-10;
Mat9 polarRotationDerivative(const Mat3& F);
Mat9 polarRotationDerivative(const SignedSvd& svd);

// The same derivative as three weighted rank-1 terms, dR/dF = sum_k weight_k t_k t_k^T
// with t_k = vec(twist_k) (twist_k = u_i v_j^T - u_j v_i^T for the pairs (0,1), (0,2),
// (1,2); weight_k = 1 / (sigma_i + sigma_j), floored as above), for callers that chain
// it with linear maps of F (K dR/dF K' = sum_k weight_k (K t_k)(K'^T t_k)^T).
struct PolarTwists {
  Mat3 twist[3];
  Vec3 weight;
};
PolarTwists polarRotationTwists(const SignedSvd& svd);

}  // namespace softfit
