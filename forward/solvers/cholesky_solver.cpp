#include "forward/solvers/cholesky_solver.h"

#include <Eigen/CholmodSupport>
#include <stdexcept>

namespace softfit {

struct CholeskySolver::Impl {
  Eigen::CholmodDecomposition<SparseMatrix, Eigen::Lower> llt;
};

CholeskySolver::CholeskySolver(CholeskyMode mode) : impl_(std::make_unique<Impl>()), mode_(mode) {
  impl_->llt.setMode(mode == CholeskyMode::Supernodal ? Eigen::CholmodSupernodalLLt : Eigen::CholmodLDLt);
}
CholeskySolver::~CholeskySolver() = default;
CholeskySolver::CholeskySolver(CholeskySolver&&) noexcept = default;
CholeskySolver& CholeskySolver::operator=(CholeskySolver&&) noexcept = default;

bool CholeskySolver::factorize(const SparseMatrix& A) {
  if (A.rows() != analyzedRows_ || A.nonZeros() != analyzedNonZeros_) {
    impl_->llt.analyzePattern(A);
    analyzedRows_ = A.rows();
    analyzedNonZeros_ = A.nonZeros();
    ++analyses_;
  }
  impl_->llt.factorize(A);
  factorized_ = impl_->llt.info() == Eigen::Success;
  return factorized_;
}

VecX CholeskySolver::solve(const VecX& b) const {
  if (!factorized_) throw std::logic_error("CholeskySolver::solve called without a valid factorization");
  VecX x = impl_->llt.solve(b);
  return x;
}

MatX CholeskySolver::solveColumns(const MatX& B) const {
  if (!factorized_) throw std::logic_error("CholeskySolver::solve called without a valid factorization");
  MatX X = impl_->llt.solve(B);
  return X;
}

PcgResult preconditionedConjugateGradient(const SparseMatrix& A, const VecX& b, const CholeskySolver& preconditioner,
                                          VecX& x, double tolerance, int maxIterations) {
  PcgResult result;
  const double bNorm = b.norm();
  if (bNorm == 0.0) {
    x.setZero();
    result.converged = true;
    return result;
  }
  VecX r = b - A * x;
  VecX z = preconditioner.solve(r);
  VecX p = z;
  double rz = r.dot(z);
  for (int it = 0; it < maxIterations; ++it) {
    result.relativeResidual = r.norm() / bNorm;
    if (result.relativeResidual <= tolerance) {
      result.converged = true;
      result.iterations = it;
      return result;
    }
    const VecX Ap = A * p;
    const double alpha = rz / p.dot(Ap);
    x += alpha * p;
    r -= alpha * Ap;
    z = preconditioner.solve(r);
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
