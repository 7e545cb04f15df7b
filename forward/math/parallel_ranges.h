#pragma once
// Deterministic data parallelism for element and point loops.
// forEachRangeInParallel runs work(begin, end) over contiguous ranges of [0, n) on up to
// `threads` threads (0 = defaultThreadCount(), normally all cores; fewer when there are not at least
// `minPerThread` items per thread). Each item must write only its own output slot, so
// results never depend on the thread count; callers accumulate sums sequentially
// afterwards (computeInParallelScatterInOrder does exactly that for element loops).
#include <algorithm>
#include <functional>

namespace softfit {

// The thread count that `threads` = 0 stands for: OpenMP's default team size
// (omp_get_max_threads: OMP_NUM_THREADS, omp_set_num_threads, else the cores this
// process may run on) when built with OpenMP, else std::thread::hardware_concurrency.
int defaultThreadCount();

void forEachRangeInParallel(int n, int threads, const std::function<void(int begin, int end)>& work,
                            int minPerThread = 256);

// True when parallel ranges run on persistent workers (worker_pool.h: a region costs
// tens of microseconds to wake them, no thread start).
bool persistentParallelWorkers();

// For items i in [0, n), in batches of at most `batchSize`: compute(i, slot) in parallel
// (slot in [0, batchSize) indexes caller-owned scratch storage), then scatter(i, slot)
// sequentially in increasing i. Sums accumulated in scatter are therefore bit-identical
// to a serial loop whatever the thread count. `minPerThread` as for forEachRangeInParallel.
template <typename Compute, typename Scatter>
void computeInParallelScatterInOrder(int n, int batchSize, int threads, const Compute& compute, const Scatter& scatter,
                                     int minPerThread = 256) {
  for (int first = 0; first < n; first += batchSize) {
    const int count = std::min(batchSize, n - first);
    forEachRangeInParallel(count, threads, [&](int begin, int end) {
      for (int slot = begin; slot < end; ++slot) compute(first + slot, slot);
    }, minPerThread);
    for (int slot = 0; slot < count; ++slot) scatter(first + slot, slot);
  }
}

}  // namespace softfit
