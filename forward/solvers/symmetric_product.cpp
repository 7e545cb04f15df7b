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
  const int hw = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  threads_ = threads > 0 ? threads : hw;
  if (A.nonZeros() < kParallelNonZeros) threads_ = 1;
}

void SymmetricProduct::apply(const SparseMatrix& A, const VecX& x, VecX& y) const {
  if (A.rows() != rows_ || A.nonZeros() != nonZeros_)
    throw std::logic_error("SymmetricProduct: matrix structure differs from the one it was built for");
  y.resize(A.rows());
  const int units = static_cast<int>(blocked_ ? A.cols() / 3 : A.cols());
  const int stride = blocked_ ? 3 : 1;
  auto run = [&](int begin, int end) {
    if (blocked_) gatherBlockColumns(A, x.data(), y.data(), begin, end);
    else gatherColumns(A, x.data(), y.data(), begin, end);
  };
  if (threads_ == 1) {
    run(0, units);
    return;
  }
  // Split the columns so each thread gets about the same number of stored entries.
  const int* outer = A.outerIndexPtr();
  std::vector<int> bounds(threads_ + 1, units);
  bounds[0] = 0;
  for (int t = 1; t < threads_; ++t) {
    const long long target = static_cast<long long>(A.nonZeros()) * t / threads_;
    const int* it = std::lower_bound(outer, outer + A.cols() + 1, target);
    bounds[t] = std::max(bounds[t - 1], static_cast<int>((it - outer) / stride));
  }
  std::vector<std::thread> pool;
  for (int t = 1; t < threads_; ++t) pool.emplace_back(run, bounds[t], bounds[t + 1]);
  run(bounds[0], bounds[1]);
  for (std::thread& th : pool) th.join();
}

}  // namespace softfit
