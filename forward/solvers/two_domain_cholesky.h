#pragma once
// Sparse SPD factorization on two cores: one level of nested dissection done by hand.
// The node graph (blocks of `blockSize` dofs) is bisected (METIS' node separator through
// CHOLMOD) into domains A and B and a separator S. Each domain, with S ordered last,
//   K_A = [H_AA H_AS; H_SA H_SS] = L_A L_A^T,   L_A = [L11 0; L21 L22],
// is factorized by CHOLMOD on its own core; its last block gives
//   T_A = L22 L22^T = H_SS - H_SA H_AA^-1 H_AS.
// The separator's Schur complement  Sigma = T_A + T_B - H_SS  (dense) is then factorized
// by LAPACK. A solve runs both domains' forward substitutions in parallel (L11 z = b_A,
// leaving -L21 z for S's right-hand side), the dense separator solve, then both back
// substitutions (L11^T x_A = z - L21^T x_S). They are softfit's own loops over CHOLMOD's
// supernodes (BLAS trsm and gemm per supernode), over the interior ones only (L22 is not
// needed), and the forward one skips the columns that are still zero on a supernode's
// rows (a right-hand side that is zero outside part of a domain, as a muscle's force
// derivative, reaches only the supernodes above its rows). Each domain's factor is about a third
// of the whole one's flops (METIS ordering within the domain), so a factorization takes
// about half the time of CholeskySolver's on one core, without BLAS threads.
//
// Dofs in `decoupled` (eliminated Dirichlet dofs: identity rows and columns) are left out
// of the graph (and nodes with only such dofs, which would skew the balance) and solved
// as x = b / A_ii. The same input gives the same bits on any
// number of threads.
#include <memory>
#include <vector>

#include "forward/solvers/dirichlet_elimination.h"
#include "forward/types.h"

namespace softfit {

// From this many rows on, FaceSolver factorizes its exact Hessians with TwoDomainCholesky.
constexpr Eigen::Index kTwoDomainCholeskyRows = 10000;

class TwoDomainCholesky {
 public:
  TwoDomainCholesky();
  ~TwoDomainCholesky();
  TwoDomainCholesky(const TwoDomainCholesky&) = delete;
  TwoDomainCholesky& operator=(const TwoDomainCholesky&) = delete;

  // Splits the pattern of A (square, symmetric with both triangles stored, compressed),
  // whose dofs come in nodes of blockSize consecutive dofs. Returns false (and nothing can
  // be factorized) when the graph does not split into two non-empty domains.
  bool analyze(const SparseMatrix& A, int blockSize, const DofMask& decoupled);
  bool analyzed() const { return analyzed_; }
  // Numeric factorization of A (the analyzed pattern). Returns false when A is not
  // positive definite.
  bool factorize(const SparseMatrix& A);
  bool factorized() const { return factorized_; }
  // A^-1 B, the columns solved together (in place: B becomes the solution). Uses
  // workspace kept in this object: one call at a time.
  void solveInPlace(MatX& B) const;
  MatX solveColumns(const MatX& B) const {
    MatX X = B;
    solveInPlace(X);
    return X;
  }

  int separatorSize() const;  // dofs in S
  int interiorSize(int domain) const;  // dofs in A (0) or B (1), S and decoupled dofs not counted
  double domainFlops(int domain) const;  // CHOLMOD's flop count of K_A (0) or K_B (1)

 private:
  struct Domain;
  struct Impl;
  std::unique_ptr<Impl> impl_;
  bool analyzed_ = false, factorized_ = false;
};

}  // namespace softfit
