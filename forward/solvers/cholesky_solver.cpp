#include "forward/solvers/cholesky_solver.h"

#include <Eigen/CholmodSupport>
#include <algorithm>
#include <stdexcept>
#include <vector>

#include "forward/math/parallel_ranges.h"
#include "forward/solvers/blas_threads.h"
#include "forward/solvers/cholmod_common.h"

namespace softfit {

namespace {

// Eigen's CHOLMOD wrapper with its factor exposed, for solves with a cholmod_common of
// their own (one per thread: CHOLMOD's solve writes workspace into the common).
class CholmodDecomposition : public Eigen::CholmodDecomposition<SparseMatrix, Eigen::Lower> {
 public:
  cholmod_factor* factor() const { return m_cholmodFactor; }
};

}  // namespace

struct CholeskySolver::Impl {
  CholmodDecomposition llt;
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

MatX CholeskySolver::solveColumns(const MatX& B, int threads) const {
  if (!factorized_) throw std::logic_error("CholeskySolver::solve called without a valid factorization");
  if (B.cols() <= kSolveColumnsPerChunk) {
    MatX X = impl_->llt.solve(B);
    return X;
  }
  // Fixed-size column chunks, solved in parallel, each with its own cholmod_common: the
  // chunks (and so the bits) do not depend on the thread count.
  const Eigen::Index chunkCount = (B.cols() + kSolveColumnsPerChunk - 1) / kSolveColumnsPerChunk;
  MatX X(B.rows(), B.cols());
  std::vector<char> failed(chunkCount, 0);
  forEachRangeInParallel(
      static_cast<int>(chunkCount), threads,
      [&](int begin, int end) {
        CholmodCommon thread;  // this thread's solves
        cholmod_common& common = thread.common;
        for (int k = begin; k < end; ++k) {
          const Eigen::Index first = k * kSolveColumnsPerChunk;
          const Eigen::Index count = std::min<Eigen::Index>(kSolveColumnsPerChunk, B.cols() - first);
          // The chunk's columns are contiguous in B (column-major): CHOLMOD reads them in
          // place (it does not write to its right-hand side).
          Eigen::Map<MatX> chunk(const_cast<double*>(B.data()) + first * B.rows(), B.rows(), count);
          cholmod_dense b = Eigen::viewAsCholmod(chunk);
          cholmod_dense* x = cholmod_solve(CHOLMOD_A, impl_->llt.factor(), &b, &common);
          if (!x) {
            failed[k] = 1;
            continue;
          }
          X.middleCols(first, count) = Eigen::Map<const MatX>(static_cast<const double*>(x->x), B.rows(), count);
          cholmod_free_dense(&x, &common);
        }
      },
      1);
  for (char f : failed)
    if (f) throw std::runtime_error("CholeskySolver::solveColumns: CHOLMOD's solve failed (out of memory?)");
  return X;
}

PcgResult preconditionedConjugateGradient(const SparseMatrix& A, const VecX& b, const CholeskySolver& preconditioner,
                                          VecX& x, double tolerance, int maxIterations) {
  return conjugateGradient([&](const VecX& p, VecX& Ap) { Ap = A * p; },
                           [&](const VecX& r, VecX& z) { z = preconditioner.solve(r); }, b, x, tolerance,
                           maxIterations);
}

}  // namespace softfit
