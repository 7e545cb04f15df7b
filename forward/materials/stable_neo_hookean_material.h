#pragma once
#include "forward/materials/material.h"

namespace softfit {

// Stable neo-Hookean (Smith et al. 2018) in the form of Chen et al. 2024 (docs/theory.rst,
// section 5), with Smith's reparameterization lambda' = lambda + mu so that the
// small-strain limit has the given Lame parameters (mu, lambda), like every other
// model here (E and nu mean the same thing for all materials):
//   Psi = mu/2 (I_C - 3) + lambda'/2 (J - 1 - mu/lambda')^2 - mu^2 / (2 lambda')
//       = mu/2 (I_C - 3) - mu (J - 1) + lambda'/2 (J - 1)^2,      I_C = tr(F^T F).
// The constant mu^2/(2 lambda') is subtracted so Psi(I) = 0; P and dP/dF are those of
// the printed form. Smooth and finite for inverted F.
class StableNeoHookeanMaterial final : public Material {
 public:
  double energyDensity(const Mat3& F, const LameParameters& p) const override;
  Mat3 firstPiola(const Mat3& F, const LameParameters& p) const override;
  Mat9 firstPiolaDerivative(const Mat3& F, const LameParameters& p) const override;
  std::array<double, 2> energyParameterDerivative(const Mat3& F, const LameParameters& p) const override;
  std::array<Mat3, 2> firstPiolaParameterDerivative(const Mat3& F, const LameParameters& p) const override;
};

// Closed-form eigensystem of dP/dF (Smith et al. 2019, "Analytic eigensystems for
// isotropic distortion energies"), no iterative 9x9 eigensolver. With the sign-fixed SVD
// F = U diag(s) V^T, J = s0 s1 s2, c = lambda' (J - 1) - mu:
//   twist  U (e_i e_j^T - e_j e_i^T) V^T / sqrt2 : mu + c s_k     ({i, j, k} = {0, 1, 2})
//   flip   U (e_i e_j^T + e_j e_i^T) V^T / sqrt2 : mu - c s_k
//   scale  U diag(q) V^T, q the eigenvectors of the 3x3 A_ii = mu + lambda' (J / s_i)^2,
//          A_ij = s_k (c + lambda' J)   (the Hessian of Psi in singular-value space).
// dP/dF = vectors diag(values) vectors^T; columns are orthonormal, column-major vec.
struct MaterialEigensystem {
  Vec9 values;
  Mat9 vectors;
};
MaterialEigensystem stableNeoHookeanEigensystem(const Mat3& F, const LameParameters& p);

}  // namespace softfit
