#include "forward/solvers/symmetric_product.h"

#include "forward/math/parallel_ranges.h"

#include <algorithm>
#include <stdexcept>
#include <thread>
#include <vector>

namespace softfit {

namespace {

// Below this many stored entries (~r = 15 cuboid) a product is not worth starting a
// thread for (and threads stall when the cores are busy).
constexpr Eigen::Index kParallelNonZeros = 2000000;
// Chunks of a large blocked product, whatever the thread count (so the sums, and thus
// the bits, do not depend on it).
constexpr int kChunks = 4;

bool hasBlockColumns(const SparseMatrix& A) {
  if (A.rows() != A.cols() || A.cols() % 3 != 0 || !A.isCompressed()) return false;
  const int* outer = A.outerIndexPtr();
  const int* inner = A.innerIndexPtr();
  for (Eigen::Index J = 0; J < A.cols() / 3; ++J) {
    const int c0 = outer[3 * J], len = outer[3 * J + 1] - c0;
    if (len % 3 != 0 || outer[3 * J + 2] - outer[3 * J + 1] != len || outer[3 * J + 3] - outer[3 * J + 2] != len)
      return false;
    for (int k = 1; k < 3; ++k)
      if (!std::equal(inner + c0, inner + c0 + len, inner + outer[3 * J + k])) return false;
    for (int p = 0; p < len; p += 3) {
      const int r = inner[c0 + p];
      if (r % 3 != 0 || inner[c0 + p + 1] != r + 1 || inner[c0 + p + 2] != r + 2) return false;
    }
  }
  return true;
}

// Columns [begin, end) of y = A x (scalar gathers).
void gatherColumns(const SparseMatrix& A, const double* x, double* y, int begin, int end) {
  const int* outer = A.outerIndexPtr();
  const int* inner = A.innerIndexPtr();
  const double* values = A.valuePtr();
  for (int c = begin; c < end; ++c) {
    double sum = 0.0;
    for (int p = outer[c]; p < outer[c + 1]; ++p) sum += values[p] * x[inner[p]];
    y[c] = sum;
  }
}

// Block columns [begin, end) of y = A x from the lower triangle only (half the memory
// traffic): block column J gathers sum_{I >= J} A_IJ^T x_I into y_J and scatters
// A_IJ x_J into y_I for I > J. y must be zero on entry over the rows it receives
// (rows >= 3 begin). diagonal[J] = offset of block row J within block column J.
void lowerBlockColumns(const SparseMatrix& A, const std::vector<int>& diagonal, const double* x, double* y, int begin,
                       int end) {
  const int* outer = A.outerIndexPtr();
  const int* inner = A.innerIndexPtr();
  const double* values = A.valuePtr();
  for (int J = begin; J < end; ++J) {
    const int o0 = outer[3 * J], o1 = outer[3 * J + 1], o2 = outer[3 * J + 2];
    const int len = o1 - o0;
    const int first = diagonal[J];
    const double* v0 = values + o0;
    const double* v1 = values + o1;
    const double* v2 = values + o2;
    const int* rows = inner + o0;
    const double xJ0 = x[3 * J], xJ1 = x[3 * J + 1], xJ2 = x[3 * J + 2];
    // Diagonal block: gather only.
    double s0 = v0[first] * xJ0 + v0[first + 1] * xJ1 + v0[first + 2] * xJ2;
    double s1 = v1[first] * xJ0 + v1[first + 1] * xJ1 + v1[first + 2] * xJ2;
    double s2 = v2[first] * xJ0 + v2[first + 1] * xJ1 + v2[first + 2] * xJ2;
    for (int p = first + 3; p < len; p += 3) {
      const int r = rows[p];
      const double* xr = x + r;
      const double x0 = xr[0], x1 = xr[1], x2 = xr[2];
      const double a00 = v0[p], a10 = v0[p + 1], a20 = v0[p + 2];  // A(r + i, 3J + k) = a_ik
      const double a01 = v1[p], a11 = v1[p + 1], a21 = v1[p + 2];
      const double a02 = v2[p], a12 = v2[p + 1], a22 = v2[p + 2];
      s0 += a00 * x0 + a10 * x1 + a20 * x2;
      s1 += a01 * x0 + a11 * x1 + a21 * x2;
      s2 += a02 * x0 + a12 * x1 + a22 * x2;
      double* yr = y + r;
      yr[0] += a00 * xJ0 + a01 * xJ1 + a02 * xJ2;
      yr[1] += a10 * xJ0 + a11 * xJ1 + a12 * xJ2;
      yr[2] += a20 * xJ0 + a21 * xJ1 + a22 * xJ2;
    }
    y[3 * J] += s0;
    y[3 * J + 1] += s1;
    y[3 * J + 2] += s2;
  }
}

}  // namespace

SymmetricProduct::SymmetricProduct(const SparseMatrix& A, int threads)
    : blocked_(hasBlockColumns(A)), rows_(A.rows()), nonZeros_(A.nonZeros()) {
  if (A.rows() != A.cols()) throw std::invalid_argument("SymmetricProduct: matrix is not square");
  if (blocked_) {
    const int* outer = A.outerIndexPtr();
    const int* inner = A.innerIndexPtr();
    diagonal_.resize(A.cols() / 3);
    for (int J = 0; J < static_cast<int>(diagonal_.size()); ++J) {
      const int* begin = inner + outer[3 * J];
      const int* end = inner + outer[3 * J + 1];
      const int* it = std::lower_bound(begin, end, 3 * J);
      if (it == end || *it != 3 * J) {
        blocked_ = false;  // no diagonal block: plain gathers
        diagonal_.clear();
        break;
      }
      diagonal_[J] = static_cast<int>(it - begin);
    }
  }
  const bool large = A.nonZeros() >= kParallelNonZeros;
  chunks_ = blocked_ && large ? kChunks : 1;
  const int hw = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  threads_ = threads > 0 ? threads : (large ? hw : 1);
}

void SymmetricProduct::apply(const SparseMatrix& A, const VecX& x, VecX& y) const {
  if (A.rows() != rows_ || A.nonZeros() != nonZeros_)
    throw std::logic_error("SymmetricProduct: matrix structure differs from the one it was built for");
  y.resize(A.rows());
  if (!blocked_) {
    forEachRangeInParallel(static_cast<int>(A.cols()), threads_,
                           [&](int begin, int end) { gatherColumns(A, x.data(), y.data(), begin, end); }, 1);
    return;
  }
  const int blocks = static_cast<int>(A.cols() / 3);
  y.setZero();
  if (chunks_ == 1) {
    lowerBlockColumns(A, diagonal_, x.data(), y.data(), 0, blocks);
    return;
  }
  // Chunk c takes block columns [bounds[c], bounds[c+1]) and scatters into its own
  // buffer (rows >= 3 bounds[c]; chunk 0 into y); the buffers are added in chunk order.
  std::vector<int> bounds(chunks_ + 1);
  for (int c = 0; c <= chunks_; ++c) bounds[c] = static_cast<int>(static_cast<long long>(blocks) * c / chunks_);
  scratch_.resize(chunks_ - 1);
  for (VecX& buffer : scratch_) buffer.resize(A.rows());
  forEachRangeInParallel(chunks_, threads_, [&](int first, int last) {
    for (int c = first; c < last; ++c) {
      double* out = y.data();
      if (c > 0) {
        VecX& buffer = scratch_[c - 1];
        buffer.segment(3 * bounds[c], A.rows() - 3 * bounds[c]).setZero();
        out = buffer.data();
      }
      lowerBlockColumns(A, diagonal_, x.data(), out, bounds[c], bounds[c + 1]);
    }
  }, 1);
  for (int c = 1; c < chunks_; ++c)
    y.tail(A.rows() - 3 * bounds[c]) += scratch_[c - 1].tail(A.rows() - 3 * bounds[c]);
}

}  // namespace softfit
