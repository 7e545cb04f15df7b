#include "forward/math/parallel_ranges.h"

#include <exception>
#include <thread>
#include <vector>

#ifdef SOFTFIT_OPENMP
#include <omp.h>
#endif

namespace softfit {

namespace {

// Range k of [0, n) split into `parts` contiguous ranges.
int rangeBound(int n, int k, int parts) { return static_cast<int>(static_cast<long long>(n) * k / parts); }

}  // namespace

int defaultThreadCount() {
#ifdef SOFTFIT_OPENMP
  return std::max(1, omp_get_max_threads());
#else
  return static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
#endif
}

bool persistentParallelWorkers() {
#ifdef SOFTFIT_OPENMP
  return true;
#else
  return false;
#endif
}

void forEachRangeInParallel(int n, int threads, const std::function<void(int begin, int end)>& work,
                            int minPerThread) {
  if (n <= 0) return;
  int t = threads > 0 ? threads : defaultThreadCount();
  t = std::min(t, std::max(1, n / std::max(1, minPerThread)));  // not worth a thread for fewer items
  if (t <= 1) {
    work(0, n);
    return;
  }
#ifdef SOFTFIT_OPENMP
  // OpenMP's workers persist between calls (no thread start per call: cheap enough for
  // sub-millisecond loops such as one sparse product). Inside another parallel region
  // the work runs on the calling thread. Every item writes its own output, so how the
  // runtime splits the range does not change the results.
  if (omp_in_parallel()) {
    work(0, n);
    return;
  }
  std::exception_ptr error;
#pragma omp parallel num_threads(t)
  {
    const int k = omp_get_thread_num(), parts = omp_get_num_threads();
    try {
      work(rangeBound(n, k, parts), rangeBound(n, k + 1, parts));
    } catch (...) {
#pragma omp critical(softfit_parallel_ranges_error)
      if (!error) error = std::current_exception();
    }
  }
  if (error) std::rethrow_exception(error);
#else
  std::vector<std::thread> pool;
  for (int k = 1; k < t; ++k) pool.emplace_back(work, rangeBound(n, k, t), rangeBound(n, k + 1, t));
  work(0, rangeBound(n, 1, t));  // the calling thread takes the first range
  for (std::thread& th : pool) th.join();
#endif
}

}  // namespace softfit
