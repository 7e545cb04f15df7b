#pragma once
// The active corotated energy density of a muscle-driven tet (Dinev ch.4;
// docs/theory.rst, section 6):
//   Psi(F; A) = mu ||F - R A||_F^2 + lambda/2 (tr S(F) - 3)^2,
//   R = polar(F A), S(F) = polar(F)^T F (symmetric stretch), A = Sym(a).
// R is the rotation closest to F A^T = F A, i.e. the minimizer of ||F - R A|| over
// rotations, so dPsi/dF = 2 mu (F - R A) + lambda (tr S - 3) polar(F) (envelope theorem).
// Convention: we write lambda/2 where Dinev writes lambda, so (mu, lambda) are the usual
// Lame parameters and the passive model (A = I) linearizes exactly like the forward
// corotated material (forward/materials/corotated_material.h); Dinev's lambda = ours / 2.
#include "face/activation.h"
#include "forward/materials/material.h"
#include "forward/math/polar_decomposition.h"

namespace softfit::face {

// The two polar decompositions the energy needs: of F (for S(F)) and of F A (for R).
// activePolar computes them (one SVD when A is exactly the identity, a passive tet, since
// then F A = F bit for bit); the functions below take them precomputed so that callers
// evaluating several quantities at the same F (FacePotential caches them per x) pay for
// the SVDs once.
struct ActivePolar {
  SignedSvd f;   // signedSvd(F)
  SignedSvd fa;  // signedSvd(F A)
};
ActivePolar activePolar(const Mat3& F, const Mat3& A);

double activeEnergyDensity(const Mat3& F, const Mat3& A, const LameParameters& p, const ActivePolar& polar);
// P = dPsi/dF.
Mat3 activeFirstPiola(const Mat3& F, const Mat3& A, const LameParameters& p, const ActivePolar& polar);
// d vec(P) / d vec(F) (9x9, column-major vec), exact (not PSD-filtered).
Mat9 activeFirstPiolaDerivative(const Mat3& F, const Mat3& A, const LameParameters& p, const ActivePolar& polar);
// The same as 2 mu I + sum_m weight_m vec(M_m) vec(M_m)^T (7 terms: R's three twists
// times A, polar(F), polar(F)'s three twists), for element Hessians that map each M_m
// through the shape functions once instead of multiplying a 9x9 matrix.
struct ActiveStiffnessTerms {
  double identity = 0.0;  // 2 mu
  Mat3 M[7];
  double weight[7];
};
ActiveStiffnessTerms activeFirstPiolaDerivativeTerms(const Mat3& F, const Mat3& A, const LameParameters& p,
                                                     const ActivePolar& polar);
// d vec(P) / d a (9x6) at fixed F: the mixed derivative the adjoint needs.
Mat96 activeFirstPiolaActivationDerivative(const Mat3& F, const Mat3& A, const LameParameters& p,
                                           const ActivePolar& polar);
// The same with the polar decompositions computed here.
inline double activeEnergyDensity(const Mat3& F, const Mat3& A, const LameParameters& p) {
  return activeEnergyDensity(F, A, p, activePolar(F, A));
}
inline Mat3 activeFirstPiola(const Mat3& F, const Mat3& A, const LameParameters& p) {
  return activeFirstPiola(F, A, p, activePolar(F, A));
}
inline Mat9 activeFirstPiolaDerivative(const Mat3& F, const Mat3& A, const LameParameters& p) {
  return activeFirstPiolaDerivative(F, A, p, activePolar(F, A));
}
inline Mat96 activeFirstPiolaActivationDerivative(const Mat3& F, const Mat3& A, const LameParameters& p) {
  return activeFirstPiolaActivationDerivative(F, A, p, activePolar(F, A));
}
// dPsi/da at fixed F.
Vec6 activeEnergyActivationGradient(const Mat3& F, const Mat3& A, const LameParameters& p);

}  // namespace softfit::face
