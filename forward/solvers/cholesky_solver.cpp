#include "forward/solvers/cholesky_solver.h"

#include <Eigen/CholmodSupport>
#include <stdexcept>

#include "forward/solvers/blas_threads.h"

namespace softfit {

struct CholeskySolver::Impl {
  Eigen::CholmodDecomposition<SparseMatrix, Eigen::Lower> llt;
};

CholeskySolver::CholeskySolver(CholeskyMode mode) : impl_(std::make_unique<Impl>()), mode_(mode) {
  availableBlasThreads();  // first use: the BLAS is switched to softfit's single-threaded default
  impl_->llt.setMode(mode == CholeskyMode::Supernodal ? Eigen::CholmodSupernodalLLt : Eigen::CholmodLDLt);
  // Silent: "not positive definite" is an answer here (factorize() returns false), not a
  // message for stdout; every failure is reported through factorize()'s result.
  impl_->llt.cholmod().print = 0;
}
CholeskySolver::~CholeskySolver() = default;
CholeskySolver::CholeskySolver(CholeskySolver&&) noexcept = default;
CholeskySolver& CholeskySolver::operator=(CholeskySolver&&) noexcept = default;

bool CholeskySolver::factorize(const SparseMatrix& A) {
  if (A.rows() != analyzedRows_ || A.nonZeros() != analyzedNonZeros_) {
    // Large systems: CHOLMOD tries METIS besides AMD and keeps the ordering with the
    // smaller factor (once per pattern; -23% flops per factorization on the 25k-tet
    // face). Small ones keep AMD alone: METIS would cost more than it saves.
    cholmod_common& c = impl_->llt.cholmod();
    if (A.rows() >= kMetisOrderingRows) {
      c.nmethods = 2;
      c.method[0].ordering = CHOLMOD_AMD;
      c.method[1].ordering = CHOLMOD_METIS;
    } else {
      c.nmethods = 0;  // CHOLMOD's default
    }
    impl_->llt.analyzePattern(A);
    analyzedRows_ = A.rows();
    analyzedNonZeros_ = A.nonZeros();
    ++analyses_;
    factorFlops_ = impl_->llt.cholmod().fl;  // set by the symbolic analysis
  }
  {
    // Solves and small factorizations run on one BLAS thread; large ones on all.
    const BlasThreadScope blas(mode_ == CholeskyMode::Supernodal ? blasThreadsForFlops(factorFlops_) : 1);
    const SerialOpenMpScope serialCholmodLoops;
    impl_->llt.factorize(A);
  }
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
  return conjugateGradient([&](const VecX& p, VecX& Ap) { Ap = A * p; },
                           [&](const VecX& r, VecX& z) { z = preconditioner.solve(r); }, b, x, tolerance,
                           maxIterations);
}

}  // namespace softfit
