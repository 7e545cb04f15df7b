#pragma once
// Preconditioned conjugate gradients on A x = b, written once for every operator and
// preconditioner: multiply(p, Ap) sets Ap = A p, precondition(r, z) sets z = B r (B
// symmetric positive definite). x holds the initial guess. Stops when
// ||r|| <= tolerance ||b||, or with breakdown set when r^T B r <= 0 or p^T A p <= 0 (a
// preconditioner or matrix that is not positive definite).
#include "forward/types.h"

namespace softfit {

struct PcgResult {
  int iterations = 0;
  double relativeResidual = 0.0;
  bool converged = false;
  bool breakdown = false;  // the preconditioner or the matrix was not positive definite
};

template <typename Multiply, typename Precondition>
PcgResult conjugateGradient(const Multiply& multiply, const Precondition& precondition, const VecX& b, VecX& x,
                            double tolerance, int maxIterations) {
  PcgResult result;
  const double bNorm = b.norm();
  if (bNorm == 0.0) {
    x.setZero();
    result.converged = true;
    return result;
  }
  VecX r, z, p, Ap;
  multiply(x, Ap);
  r = b - Ap;
  precondition(r, z);
  p = z;
  double rz = r.dot(z);
  for (int it = 0; it < maxIterations; ++it) {
    result.relativeResidual = r.norm() / bNorm;
    result.iterations = it;
    if (result.relativeResidual <= tolerance) {
      result.converged = true;
      return result;
    }
    if (!(rz > 0.0)) {
      result.breakdown = true;
      return result;
    }
    multiply(p, Ap);
    const double pAp = p.dot(Ap);
    if (!(pAp > 0.0)) {
      result.breakdown = true;
      return result;
    }
    const double alpha = rz / pAp;
    x += alpha * p;
    r -= alpha * Ap;
    precondition(r, z);
    const double rzNew = r.dot(z);
    p = z + (rzNew / rz) * p;
    rz = rzNew;
  }
  result.iterations = maxIterations;
  result.relativeResidual = r.norm() / bNorm;
  result.converged = result.relativeResidual <= tolerance;
  return result;
}

}  // namespace softfit
