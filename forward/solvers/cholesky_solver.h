#pragma once
// Sparse SPD solves with CHOLMOD's supernodal Cholesky. The symbolic analysis (fill-
// reducing ordering: AMD, and METIS too for large systems) is done once for a sparsity
// pattern and reused for every numeric factorization.
#include <memory>

#include "forward/solvers/conjugate_gradient.h"
#include "forward/types.h"

namespace softfit {

// Supernodal: dense BLAS kernels on supernodes (large or many factorizations).
// Simplicial: LDL^T without BLAS calls; faster solves for small factors (a few 1e5
// nonzeros), where BLAS call overhead dominates.
enum class CholeskyMode { Supernodal, Simplicial };

// From this many rows on, the symbolic analysis also tries a METIS ordering and keeps the
// one with the smaller factor (below it, AMD alone, CHOLMOD's default).
constexpr Eigen::Index kMetisOrderingRows = 10000;

// Columns per parallel chunk of CholeskySolver::solveColumns.
constexpr Eigen::Index kSolveColumnsPerChunk = 24;

class CholeskySolver {
 public:
  explicit CholeskySolver(CholeskyMode mode = CholeskyMode::Supernodal);
  CholeskyMode mode() const { return mode_; }
  ~CholeskySolver();
  CholeskySolver(CholeskySolver&&) noexcept;
  CholeskySolver& operator=(CholeskySolver&&) noexcept;

  // Numeric factorization of A (lower triangle is read). Runs the symbolic analysis
  // on the first call or when the pattern size changed. Returns false when A is not
  // positive definite (the factorization is then unusable). Simplicial mode is LDL^T
  // without pivoting: it also factorizes indefinite A and fails only on a zero pivot.
  bool factorize(const SparseMatrix& A);
  VecX solve(const VecX& b) const;
  // Several right-hand sides at once; more than kSolveColumnsPerChunk are solved in
  // chunks of that many columns on up to `threads` threads (0: defaultThreadCount()),
  // with the same bits for any thread count.
  MatX solveColumns(const MatX& B, int threads = 0) const;
  bool factorized() const { return factorized_; }
  int symbolicAnalyses() const { return analyses_; }
  // Floating-point operations of one numeric factorization (from the symbolic analysis;
  // 0 before the first factorize()). Decides the BLAS thread count (blas_threads.h).
  double factorFlops() const { return factorFlops_; }

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  CholeskyMode mode_;
  bool factorized_ = false;
  int analyses_ = 0;
  double factorFlops_ = 0.0;
  Eigen::Index analyzedRows_ = -1, analyzedNonZeros_ = -1;
};

// Conjugate gradients on A x = b preconditioned by a (possibly stale) Cholesky factor.
// x holds the initial guess on entry. Stops when ||r|| <= tolerance ||b||.
PcgResult preconditionedConjugateGradient(const SparseMatrix& A, const VecX& b, const CholeskySolver& preconditioner,
                                          VecX& x, double tolerance, int maxIterations);

}  // namespace softfit
