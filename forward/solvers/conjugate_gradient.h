#pragma once
// Preconditioned conjugate gradients on A x = b, written once for every operator and
// preconditioner: multiply(p, Ap) sets Ap = A p, precondition(r, z) sets z = B r (B
// symmetric positive definite). x holds the initial guess. Stops when
// ||r|| <= tolerance ||b||, or with breakdown set when r^T B r <= 0 or p^T A p <= 0 (a
// preconditioner or matrix that is not positive definite).
// conjugateGradientColumns: the same iteration on every column of A X = B at once.
#include <algorithm>
#include <cmath>
#include <vector>

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

// Conjugate gradients on each column of A X = rhs from X = 0, each column with its own
// step lengths, as conjugateGradient's, but the matrix and the preconditioner applied to
// all columns together: multiply(P, AP) sets AP = A P, precondition(R, Z) sets Z = M R
// (one pass over a factor for all columns). A column stops once ||r|| <= tolerance ||b||.
// The result holds the iterations of the slowest column and the largest relative
// residual; converged when every column did, breakdown as in conjugateGradient (a
// non-finite column never counts as converged: it ends in a breakdown).
template <typename Multiply, typename Precondition>
PcgResult conjugateGradientColumns(const Multiply& multiply, const Precondition& precondition, const MatX& rhs,
                                   MatX& X, double tolerance, int maxIterations) {
  PcgResult result;
  const Eigen::Index columns = rhs.cols();
  X.setZero(rhs.rows(), columns);
  MatX R = rhs, Z, P, AP;
  const VecX bNorm = rhs.colwise().norm().transpose();
  std::vector<char> active(static_cast<std::size_t>(columns), 0);
  // Marks the columns within the tolerance done; true while some column is not.
  const auto anyActive = [&]() {
    bool any = false;
    result.relativeResidual = 0.0;
    for (Eigen::Index c = 0; c < columns; ++c) {
      const double relative = bNorm[c] == 0.0 ? 0.0 : R.col(c).norm() / bNorm[c];
      result.relativeResidual = std::isnan(relative) ? relative : std::max(result.relativeResidual, relative);
      active[c] = !(relative <= tolerance);  // NaN stays active
      any = any || active[c];
    }
    return any;
  };
  if (!anyActive()) {
    result.converged = true;
    return result;
  }
  precondition(R, Z);
  P = Z;
  VecX rz = (R.cwiseProduct(Z)).colwise().sum().transpose();
  for (int it = 0; it < maxIterations; ++it) {
    for (Eigen::Index c = 0; c < columns; ++c)
      if (active[c] && !(rz[c] > 0.0)) {
        result.breakdown = true;
        return result;
      }
    multiply(P, AP);
    for (Eigen::Index c = 0; c < columns; ++c) {
      if (!active[c]) continue;
      const double pAp = P.col(c).dot(AP.col(c));
      if (!(pAp > 0.0)) {
        result.breakdown = true;
        return result;
      }
      const double alpha = rz[c] / pAp;
      X.col(c) += alpha * P.col(c);
      R.col(c) -= alpha * AP.col(c);
    }
    result.iterations = it + 1;
    if (!anyActive()) {
      result.converged = true;
      return result;
    }
    precondition(R, Z);
    for (Eigen::Index c = 0; c < columns; ++c) {
      if (!active[c]) continue;
      const double rzNew = R.col(c).dot(Z.col(c));
      P.col(c) = Z.col(c) + (rzNew / rz[c]) * P.col(c);
      rz[c] = rzNew;
    }
  }
  return result;
}

}  // namespace softfit
