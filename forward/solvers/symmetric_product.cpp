#include "forward/solvers/symmetric_product.h"

#include "forward/math/parallel_ranges.h"

#include <algorithm>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#include <stdexcept>
#include <thread>
#include <vector>

namespace softfit {

namespace {

// Below this many stored entries (~r = 8 cuboid, ~0.1 ms per product) a product is not
// worth waking a second worker for.
constexpr Eigen::Index kParallelNonZeros = 250000;
// Chunks of a large blocked product, whatever the thread count (so the sums, and thus
// the bits, do not depend on it).
constexpr int kChunks = 4;

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

// Block columns [begin, end) of y = A x from the lower-triangle blocks: block column J
// gathers sum_{I >= J} A_IJ^T x_I into y_J and scatters A_IJ x_J into y_I for I > J. y
// must be zero on entry over the rows it receives (rows >= 3 begin). With SSE2 (every
// x86-64) two of the three sums of a block go into one register: the same products and
// additions in the same order as the scalar code, so the same bits.
void lowerBlockColumns(const int* blockStart, const int* blockRow, const double* blockValues, const double* x,
                       double* y, int begin, int end) {
  for (int J = begin; J < end; ++J) {
    const double xJ0 = x[3 * J], xJ1 = x[3 * J + 1], xJ2 = x[3 * J + 2];
    int q = blockStart[J];
    const double* d = blockValues + 9 * q;  // diagonal block: gather only
    double s0 = d[0] * xJ0 + d[1] * xJ1 + d[2] * xJ2;
    double s1 = d[3] * xJ0 + d[4] * xJ1 + d[5] * xJ2;
    double s2 = d[6] * xJ0 + d[7] * xJ1 + d[8] * xJ2;
#if defined(__SSE2__)
    const __m128d vJ0 = _mm_set1_pd(xJ0), vJ1 = _mm_set1_pd(xJ1), vJ2 = _mm_set1_pd(xJ2);
    __m128d s01 = _mm_setr_pd(s0, s1);
    for (++q; q < blockStart[J + 1]; ++q) {
      const double* a = blockValues + 9 * q;  // a[3k + i] = A(r + i, 3J + k)
      const int r = 3 * blockRow[q];
      const double x0 = x[r], x1 = x[r + 1], x2 = x[r + 2];
      // (s0, s1) += (a0, a3) x0 + (a1, a4) x1 + (a2, a5) x2
      __m128d t = _mm_add_pd(_mm_mul_pd(_mm_loadh_pd(_mm_load_sd(a), a + 3), _mm_set1_pd(x0)),
                             _mm_mul_pd(_mm_loadh_pd(_mm_load_sd(a + 1), a + 4), _mm_set1_pd(x1)));
      t = _mm_add_pd(t, _mm_mul_pd(_mm_loadh_pd(_mm_load_sd(a + 2), a + 5), _mm_set1_pd(x2)));
      s01 = _mm_add_pd(s01, t);
      s2 += a[6] * x0 + a[7] * x1 + a[8] * x2;
      // (y_r, y_r+1) += (a0, a1) xJ0 + (a3, a4) xJ1 + (a6, a7) xJ2
      __m128d u = _mm_add_pd(_mm_mul_pd(_mm_loadu_pd(a), vJ0), _mm_mul_pd(_mm_loadu_pd(a + 3), vJ1));
      u = _mm_add_pd(u, _mm_mul_pd(_mm_loadu_pd(a + 6), vJ2));
      _mm_storeu_pd(y + r, _mm_add_pd(_mm_loadu_pd(y + r), u));
      y[r + 2] += a[2] * xJ0 + a[5] * xJ1 + a[8] * xJ2;
    }
    y[3 * J] += _mm_cvtsd_f64(s01);
    y[3 * J + 1] += _mm_cvtsd_f64(_mm_unpackhi_pd(s01, s01));
#else
    for (++q; q < blockStart[J + 1]; ++q) {
      const double* a = blockValues + 9 * q;  // a[3k + i] = A(r + i, 3J + k)
      const int r = 3 * blockRow[q];
      const double x0 = x[r], x1 = x[r + 1], x2 = x[r + 2];
      s0 += a[0] * x0 + a[1] * x1 + a[2] * x2;
      s1 += a[3] * x0 + a[4] * x1 + a[5] * x2;
      s2 += a[6] * x0 + a[7] * x1 + a[8] * x2;
      y[r] += a[0] * xJ0 + a[3] * xJ1 + a[6] * xJ2;
      y[r + 1] += a[1] * xJ0 + a[4] * xJ1 + a[7] * xJ2;
      y[r + 2] += a[2] * xJ0 + a[5] * xJ1 + a[8] * xJ2;
    }
    y[3 * J] += s0;
    y[3 * J + 1] += s1;
#endif
    y[3 * J + 2] += s2;
  }
}

}  // namespace

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

SymmetricProduct::SymmetricProduct(const SparseMatrix& A, int threads)
    : blocked_(hasBlockColumns(A)), rows_(A.rows()), nonZeros_(A.nonZeros()) {
  if (A.rows() != A.cols()) throw std::invalid_argument("SymmetricProduct: matrix is not square");
  const int blocks = static_cast<int>(A.cols() / 3);
  if (blocked_) {
    const int* outer = A.outerIndexPtr();
    const int* inner = A.innerIndexPtr();
    diagonal_.resize(blocks);
    blockStart_.assign(1, 0);
    blockStart_.reserve(blocks + 1);
    for (int J = 0; J < blocks; ++J) {
      const int* begin = inner + outer[3 * J];
      const int* end = inner + outer[3 * J + 1];
      const int* it = std::lower_bound(begin, end, 3 * J);
      if (it == end || *it != 3 * J) {
        blocked_ = false;  // no diagonal block: plain gathers
        break;
      }
      diagonal_[J] = static_cast<int>(it - begin);
      for (; it != end; it += 3) blockRow_.push_back(*it / 3);
      blockStart_.push_back(static_cast<int>(blockRow_.size()));
    }
    if (!blocked_) {
      diagonal_.clear();
      blockStart_.clear();
      blockRow_.clear();
    }
  }
  const bool large = A.nonZeros() >= kParallelNonZeros;
  const int chunks = blocked_ && large ? kChunks : 1;
  chunkBounds_.resize(chunks + 1);
  for (int c = 0; c <= chunks; ++c)
    chunkBounds_[c] = static_cast<int>(static_cast<long long>(blocked_ ? blocks : 0) * c / chunks);
  threads_ = threads > 0 ? threads : (large ? defaultThreadCount() : 1);
  if (blocked_) blockValues_.resize(9 * blockRow_.size());
  setValues(A);
}

void SymmetricProduct::setValues(const SparseMatrix& A) {
  if (A.rows() != rows_ || A.cols() != rows_ || A.nonZeros() != nonZeros_)
    throw std::logic_error("SymmetricProduct: matrix structure differs from the one it was built for");
  if (!blocked_) {
    matrix_ = A;
    matrix_.makeCompressed();
    return;
  }
  const int* outer = A.outerIndexPtr();
  const double* values = A.valuePtr();
  const int chunks = static_cast<int>(chunkBounds_.size()) - 1;
  forEachRangeInParallel(chunks, threads_, [&](int first, int last) {
    for (int J = chunkBounds_[first]; J < chunkBounds_[last]; ++J) {
      const int offset = diagonal_[J];
      for (int q = blockStart_[J]; q < blockStart_[J + 1]; ++q) {
        double* block = blockValues_.data() + 9 * q;
        const int p = offset + 3 * (q - blockStart_[J]);
        for (int k = 0; k < 3; ++k)
          for (int i = 0; i < 3; ++i) block[3 * k + i] = values[outer[3 * J + k] + p + i];
      }
    }
  }, 1);
}

void SymmetricProduct::apply(const VecX& x, VecX& y) const {
  if (x.size() != rows_) throw std::invalid_argument("SymmetricProduct::apply: vector size differs from the matrix");
  y.resize(rows_);
  if (!blocked_) {
    forEachRangeInParallel(static_cast<int>(rows_), threads_,
                           [&](int begin, int end) { gatherColumns(matrix_, x.data(), y.data(), begin, end); }, 1);
    return;
  }
  y.setZero();
  const int chunks = static_cast<int>(chunkBounds_.size()) - 1;
  auto run = [&](int c, double* out) {
    lowerBlockColumns(blockStart_.data(), blockRow_.data(), blockValues_.data(), x.data(), out, chunkBounds_[c],
                      chunkBounds_[c + 1]);
  };
  if (chunks == 1) {
    run(0, y.data());
    return;
  }
  // Chunk c scatters into its own buffer (rows >= 3 chunkBounds_[c]; chunk 0 into y);
  // the buffers are added in chunk order.
  scratch_.resize(chunks - 1);
  for (VecX& buffer : scratch_) buffer.resize(rows_);
  forEachRangeInParallel(chunks, threads_, [&](int first, int last) {
    for (int c = first; c < last; ++c) {
      double* out = y.data();
      if (c > 0) {
        VecX& buffer = scratch_[c - 1];
        const Eigen::Index from = 3 * static_cast<Eigen::Index>(chunkBounds_[c]);
        buffer.segment(from, rows_ - from).setZero();
        out = buffer.data();
      }
      run(c, out);
    }
  }, 1);
  for (int c = 1; c < chunks; ++c) {
    const Eigen::Index from = 3 * static_cast<Eigen::Index>(chunkBounds_[c]);
    y.tail(rows_ - from) += scratch_[c - 1].tail(rows_ - from);
  }
}

}  // namespace softfit
