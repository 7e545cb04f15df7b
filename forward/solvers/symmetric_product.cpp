#include "forward/solvers/symmetric_product.h"

#include <algorithm>
#include <stdexcept>
#include <thread>
#include <vector>

namespace softfit {

namespace {

// Below this many stored entries (~r = 15 cuboid) a product is not worth starting a
// thread for (and threads stall when the cores are busy).
constexpr Eigen::Index kParallelNonZeros = 2000000;

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

// Block columns [begin, end): the three columns of a block column in one pass over
// its row indices. Same summation order per entry as gatherColumns.
void gatherBlockColumns(const SparseMatrix& A, const double* x, double* y, int begin, int end) {
  const int* outer = A.outerIndexPtr();
  const int* inner = A.innerIndexPtr();
  const double* values = A.valuePtr();
  for (int J = begin; J < end; ++J) {
    const int o0 = outer[3 * J], o1 = outer[3 * J + 1], o2 = outer[3 * J + 2];
    const int len = o1 - o0;
    const double* v0 = values + o0;
    const double* v1 = values + o1;
    const double* v2 = values + o2;
    const int* rows = inner + o0;
    double s0 = 0.0, s1 = 0.0, s2 = 0.0;
    for (int p = 0; p < len; p += 3) {
      const double* xr = x + rows[p];
      const double x0 = xr[0], x1 = xr[1], x2 = xr[2];
      s0 += v0[p] * x0;
      s0 += v0[p + 1] * x1;
      s0 += v0[p + 2] * x2;
      s1 += v1[p] * x0;
      s1 += v1[p + 1] * x1;
      s1 += v1[p + 2] * x2;
      s2 += v2[p] * x0;
      s2 += v2[p + 1] * x1;
      s2 += v2[p + 2] * x2;
    }
    y[3 * J] = s0;
    y[3 * J + 1] = s1;
    y[3 * J + 2] = s2;
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

void parallelChunks(int n, int threads, const std::function<void(int, int)>& f) {
  threads = std::max(1, std::min(threads, n));
  if (threads == 1) {
    f(0, n);
    return;
  }
  std::vector<std::thread> pool;
  pool.reserve(threads - 1);
  for (int t = 1; t < threads; ++t) {
    const int begin = static_cast<int>(static_cast<long long>(n) * t / threads);
    const int end = static_cast<int>(static_cast<long long>(n) * (t + 1) / threads);
    pool.emplace_back(f, begin, end);
  }
  f(0, static_cast<int>(static_cast<long long>(n) / threads));
  for (std::thread& th : pool) th.join();
}

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
  const int hw = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  threads_ = threads > 0 ? threads : (A.nonZeros() < kParallelNonZeros ? 1 : hw);
}

void SymmetricProduct::apply(const SparseMatrix& A, const VecX& x, VecX& y) const {
  if (A.rows() != rows_ || A.nonZeros() != nonZeros_)
    throw std::logic_error("SymmetricProduct: matrix structure differs from the one it was built for");
  y.resize(A.rows());
  if (!blocked_) {
    parallelChunks(static_cast<int>(A.cols()), threads_,
                   [&](int begin, int end) { gatherColumns(A, x.data(), y.data(), begin, end); });
    return;
  }
  const int blocks = static_cast<int>(A.cols() / 3);
  y.setZero();
  if (threads_ == 1) {
    lowerBlockColumns(A, diagonal_, x.data(), y.data(), 0, blocks);
    return;
  }
  // Thread t takes block columns [bounds[t], bounds[t+1]) and scatters into its own
  // buffer (rows >= 3 bounds[t]); the buffers are added in thread order afterwards.
  std::vector<int> bounds(threads_ + 1);
  for (int t = 0; t <= threads_; ++t) bounds[t] = static_cast<int>(static_cast<long long>(blocks) * t / threads_);
  scratch_.resize(threads_ - 1);
  std::vector<std::thread> pool;
  for (int t = 1; t < threads_; ++t) {
    VecX& buffer = scratch_[t - 1];
    buffer.resize(A.rows());
    pool.emplace_back([&, t] {
      buffer.segment(3 * bounds[t], A.rows() - 3 * bounds[t]).setZero();
      lowerBlockColumns(A, diagonal_, x.data(), buffer.data(), bounds[t], bounds[t + 1]);
    });
  }
  lowerBlockColumns(A, diagonal_, x.data(), y.data(), bounds[0], bounds[1]);
  for (std::thread& th : pool) th.join();
  for (int t = 1; t < threads_; ++t)
    y.tail(A.rows() - 3 * bounds[t]) += scratch_[t - 1].tail(A.rows() - 3 * bounds[t]);
}

}  // namespace softfit
