#include "face/active_corotated.h"

namespace softfit::face {

namespace {

// Column-major vec(X B) = (B^T kron I) vec(X); for symmetric B this is kron(B, I).
Mat9 rightMultiplier(const Mat3& B) {
  Mat9 K = Mat9::Zero();
  for (int j = 0; j < 3; ++j)
    for (int l = 0; l < 3; ++l)
      for (int i = 0; i < 3; ++i) K(i + 3 * j, i + 3 * l) = B(l, j);
  return K;
}

// vec(B X) = (I kron B) vec(X).
Mat9 leftMultiplier(const Mat3& B) {
  Mat9 K = Mat9::Zero();
  for (int j = 0; j < 3; ++j) K.block<3, 3>(3 * j, 3 * j) = B;
  return K;
}

double stretchTrace(const SignedSvd& svd) { return svd.sigma.sum(); }

}  // namespace

ActivePolar activePolar(const Mat3& F, const Mat3& A) {
  ActivePolar out;
  out.f = signedSvd(F);
  out.fa = A == Mat3::Identity() ? out.f : signedSvd(Mat3(F * A));
  return out;
}

double activeEnergyDensity(const Mat3& F, const Mat3& A, const LameParameters& p, const ActivePolar& polar) {
  const Mat3 R = polarRotation(polar.fa);
  const double t = stretchTrace(polar.f) - 3.0;
  return p.mu * (F - R * A).squaredNorm() + 0.5 * p.lambda * t * t;
}

Mat3 activeFirstPiola(const Mat3& F, const Mat3& A, const LameParameters& p, const ActivePolar& polar) {
  const Mat3 R = polarRotation(polar.fa);
  const SignedSvd& svd = polar.f;
  return 2.0 * p.mu * (F - R * A) + p.lambda * (stretchTrace(svd) - 3.0) * polarRotation(svd);
}

Mat9 activeFirstPiolaDerivative(const Mat3& F, const Mat3& A, const LameParameters& p, const ActivePolar& polar) {
  // d(R A) = dR A with dR = Dpolar(F A)[dF A]:  d vec(R A)/d vec(F) = K Dpolar K, K = kron(A, I),
  // = sum_k w_k (K t_k)(K t_k)^T over Dpolar's twists, K t_k = vec(twist_k A).
  const PolarTwists twists = polarRotationTwists(polar.fa);
  Mat9 H = Mat9::Zero();
  for (int k = 0; k < 3; ++k) {
    const Vec9 s = flatten(Mat3(twists.twist[k] * A));
    H.noalias() -= (2.0 * p.mu * twists.weight(k)) * (s * s.transpose());
  }
  H.diagonal().array() += 2.0 * p.mu;
  // d[(tr S - 3) R_F] = (R_F : dF) R_F + (tr S - 3) dR_F.
  const SignedSvd& svd = polar.f;
  const Vec9 r = flatten(polarRotation(svd));
  H.noalias() += p.lambda * (r * r.transpose());
  H.noalias() += (p.lambda * (stretchTrace(svd) - 3.0)) * polarRotationDerivative(svd);
  return H;
}

Mat96 activeFirstPiolaActivationDerivative(const Mat3& F, const Mat3& A, const LameParameters& p,
                                           const ActivePolar& polar) {
  // d(R A) = Dpolar(F A)[F dA] A + R dA.
  const Mat3 R = polarRotation(polar.fa);
  const Mat9 KD = rightMultiplier(A).lazyProduct(polarRotationDerivative(polar.fa));
  const Mat9 dRA = KD.lazyProduct(leftMultiplier(F)) + leftMultiplier(R);
  return -2.0 * p.mu * dRA.lazyProduct(activationJacobian());
}

Vec6 activeEnergyActivationGradient(const Mat3& F, const Mat3& A, const LameParameters& p) {
  // Envelope theorem (R optimal): dPsi/dA = -2 mu R^T (F - R A).
  const Mat3 R = polarRotation(Mat3(F * A));
  const Mat3 G = -2.0 * p.mu * R.transpose() * (F - R * A);
  return activationJacobian().transpose() * flatten(G);
}

}  // namespace softfit::face
