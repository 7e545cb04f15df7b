#include "face/active_corotated.h"

namespace softfit::face {

namespace {

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

ActiveStiffnessTerms activeFirstPiolaDerivativeTerms(const Mat3& /*F*/, const Mat3& A, const LameParameters& p,
                                                     const ActivePolar& polar) {
  ActiveStiffnessTerms out;
  out.identity = 2.0 * p.mu;
  // d(R A) = dR A with dR = Dpolar(F A)[dF A]:  d vec(R A)/d vec(F) = K Dpolar K, K = kron(A, I),
  // = sum_k w_k (K t_k)(K t_k)^T over Dpolar's twists, K t_k = vec(twist_k A).
  const PolarTwists twists = polarRotationTwists(polar.fa);
  for (int k = 0; k < 3; ++k) {
    out.M[k].noalias() = twists.twist[k] * A;
    out.weight[k] = -2.0 * p.mu * twists.weight(k);
  }
  // d[(tr S - 3) R_F] = (R_F : dF) R_F + (tr S - 3) dR_F.
  const SignedSvd& svd = polar.f;
  out.M[3] = polarRotation(svd);
  out.weight[3] = p.lambda;
  const PolarTwists own = polarRotationTwists(svd);
  const double pressure = p.lambda * (stretchTrace(svd) - 3.0);
  for (int k = 0; k < 3; ++k) {
    out.M[4 + k] = own.twist[k];
    out.weight[4 + k] = pressure * own.weight(k);
  }
  return out;
}

Mat9 activeFirstPiolaDerivative(const Mat3& F, const Mat3& A, const LameParameters& p, const ActivePolar& polar) {
  const ActiveStiffnessTerms terms = activeFirstPiolaDerivativeTerms(F, A, p, polar);
  Mat9 H = Mat9::Zero();
  for (int m = 0; m < 7; ++m) {
    const Vec9 v = flatten(terms.M[m]);
    H.noalias() += terms.weight[m] * (v * v.transpose());
  }
  H.diagonal().array() += terms.identity;
  return H;
}

Mat96 activeFirstPiolaActivationDerivative(const Mat3& F, const Mat3& A, const LameParameters& p,
                                           const ActivePolar& polar) {
  // d(R A) = Dpolar(F A)[F dA] A + R dA. With Dpolar = sum_k w_k t_k t_k^T (its twists),
  // the first term's d vec / d a is sum_k w_k vec(twist_k A) (E^T vec(F^T twist_k))^T
  // (E = activationJacobian(), vec(dA) = E da): rank 3, no 9 x 9 products. E's column
  // for a = (i, j) is vec(e_i e_j^T + e_j e_i^T) (once on the diagonal): R E_c puts R's
  // column i into column j and R's column j into column i, and E_c^T vec(G) = G_ij + G_ji.
  const PolarTwists twists = polarRotationTwists(polar.fa);
  const Mat3 R = polarRotation(polar.fa);
  Mat96 dRA = Mat96::Zero();
  for (int c = 0; c < 6; ++c) {
    const int i = kActivationRow[c], j = kActivationColumn[c];
    dRA.col(c).segment<3>(3 * j) = R.col(i);
    if (i != j) dRA.col(c).segment<3>(3 * i) = R.col(j);
  }
  for (int k = 0; k < 3; ++k) {
    const Mat3 TA = twists.twist[k] * A;
    const Mat3 G = F.transpose() * twists.twist[k];
    Eigen::Matrix<double, 1, 6> right;
    for (int c = 0; c < 6; ++c) {
      const int i = kActivationRow[c], j = kActivationColumn[c];
      right[c] = i == j ? G(i, i) : G(i, j) + G(j, i);
    }
    dRA.noalias() += (twists.weight(k) * Eigen::Map<const Vec9>(TA.data())) * right;
  }
  return -2.0 * p.mu * dRA;
}

Vec6 activeEnergyActivationGradient(const Mat3& F, const Mat3& A, const LameParameters& p) {
  // Envelope theorem (R optimal): dPsi/dA = -2 mu R^T (F - R A).
  const Mat3 R = polarRotation(Mat3(F * A));
  const Mat3 G = -2.0 * p.mu * R.transpose() * (F - R * A);
  return activationJacobian().transpose() * flatten(G);
}

}  // namespace softfit::face
