#include "forward/math/parallel_ranges.h"

#include <algorithm>
#include <thread>

#ifdef SOFTFIT_OPENMP
#include <omp.h>
#endif

#include "forward/math/worker_pool.h"

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

bool persistentParallelWorkers() { return true; }

void forEachRangeInParallel(int n, int threads, const std::function<void(int begin, int end)>& work,
                            int minPerThread) {
  if (n <= 0) return;
  int t = threads > 0 ? threads : defaultThreadCount();
  t = std::min(t, std::max(1, n / std::max(1, minPerThread)));  // not worth a thread for fewer items
  if (t <= 1) {
    work(0, n);
    return;
  }
  // Persistent workers that wait passively between calls (worker_pool.h). Every range
  // writes its own outputs, so the split never changes the results.
  runOnWorkers(t, [&](int k) { work(rangeBound(n, k, t), rangeBound(n, k + 1, t)); });
}

}  // namespace softfit
