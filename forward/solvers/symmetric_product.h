#pragma once
// y = A x for a symmetric sparse matrix that stores both triangles (the
// BlockSparsePattern matrices): column c of A is row c, so every y[c] is one gather
// (a dot product of column c with x) and the columns can be split over threads
// without atomics. Each y[c] is summed in the column's storage order whatever the
// thread count, so results are bit-identical run to run and for 1 or more threads.
#include <functional>

#include "forward/types.h"

namespace softfit {

class SymmetricProduct {
 public:
  SymmetricProduct() = default;
  // Inspects A's structure once: 3x3-block columns (columns 3J..3J+2 share one row
  // pattern made of whole row triples) use a kernel that reads the row indices once per
  // block column. threads <= 0: std::thread::hardware_concurrency(); small matrices run
  // on the calling thread.
  explicit SymmetricProduct(const SparseMatrix& A, int threads = 0);

  // y = A x; A must have the structure given to the constructor.
  void apply(const SparseMatrix& A, const VecX& x, VecX& y) const;
  bool blocked() const { return blocked_; }
  int threads() const { return threads_; }

 private:
  bool blocked_ = false;
  int threads_ = 1;
  Eigen::Index rows_ = -1, nonZeros_ = -1;
};

// Runs f(begin, end) over [0, n) split into `threads` equal contiguous chunks, the
// first on the calling thread (f must write disjoint outputs per index).
void parallelChunks(int n, int threads, const std::function<void(int, int)>& f);

}  // namespace softfit
