#pragma once
// y = A x for a symmetric sparse matrix that stores both triangles (the
// BlockSparsePattern matrices). 3x3-block matrices with diagonal blocks are read from
// their lower triangle only (half the memory traffic of a full product: block column
// J gathers into y_J and scatters into the rows below); large matrices are split into a
// fixed number of contiguous chunks of block columns, each scattering into its own
// buffer, added in chunk order, and the threads share out the chunks: results are
// bit-identical for every thread count. Other matrices: one gather per column (column
// c of A is row c).
#include <vector>

#include "forward/types.h"

namespace softfit {

class SymmetricProduct {
 public:
  SymmetricProduct() = default;
  // Inspects A's structure once: 3x3-block columns (columns 3J..3J+2 share one row
  // pattern made of whole row triples, with a diagonal block) use the lower-triangle
  // block kernel. threads <= 0: std::thread::hardware_concurrency() for large matrices,
  // the calling thread only for small ones.
  explicit SymmetricProduct(const SparseMatrix& A, int threads = 0);

  // y = A x; A must have the structure given to the constructor.
  void apply(const SparseMatrix& A, const VecX& x, VecX& y) const;
  bool blocked() const { return blocked_; }
  int threads() const { return threads_; }

 private:
  bool blocked_ = false;
  std::vector<int> diagonal_;  // per block column: offset of its diagonal block
  mutable std::vector<VecX> scratch_;  // per chunk after the first
  int threads_ = 1, chunks_ = 1;
  Eigen::Index rows_ = -1, nonZeros_ = -1;
};

}  // namespace softfit
