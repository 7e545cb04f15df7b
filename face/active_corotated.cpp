#include "face/active_corotated.h"

#include "forward/math/polar_decomposition.h"

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

double activeEnergyDensity(const Mat3& F, const Mat3& A, const LameParameters& p) {
  const Mat3 R = polarRotation(Mat3(F * A));
  const double t = stretchTrace(signedSvd(F)) - 3.0;
  return p.mu * (F - R * A).squaredNorm() + 0.5 * p.lambda * t * t;
}

Mat3 activeFirstPiola(const Mat3& F, const Mat3& A, const LameParameters& p) {
  const Mat3 R = polarRotation(Mat3(F * A));
  const SignedSvd svd = signedSvd(F);
  return 2.0 * p.mu * (F - R * A) + p.lambda * (stretchTrace(svd) - 3.0) * polarRotation(svd);
}

Mat9 activeFirstPiolaDerivative(const Mat3& F, const Mat3& A, const LameParameters& p) {
  // d(R A) = dR A with dR = Dpolar(F A)[dF A]:  d vec(R A)/d vec(F) = K Dpolar K, K = kron(A, I).
  const Mat9 K = rightMultiplier(A);
  const Mat9 KD = K.lazyProduct(polarRotationDerivative(Mat3(F * A)));
  Mat9 H = -2.0 * p.mu * KD.lazyProduct(K);
  H.diagonal().array() += 2.0 * p.mu;
  // d[(tr S - 3) R_F] = (R_F : dF) R_F + (tr S - 3) dR_F.
  const SignedSvd svd = signedSvd(F);
  const Vec9 r = flatten(polarRotation(svd));
  H.noalias() += p.lambda * (r * r.transpose());
  H.noalias() += (p.lambda * (stretchTrace(svd) - 3.0)) * polarRotationDerivative(svd);
  return H;
}

Mat96 activeFirstPiolaActivationDerivative(const Mat3& F, const Mat3& A, const LameParameters& p) {
  // d(R A) = Dpolar(F A)[F dA] A + R dA.
  const Mat3 FA = F * A;
  const Mat3 R = polarRotation(FA);
  const Mat9 KD = rightMultiplier(A).lazyProduct(polarRotationDerivative(FA));
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
