#pragma once
// Deterministic data parallelism for element and point loops.
// forEachRangeInParallel runs work(begin, end) over contiguous ranges of [0, n) on up to
// `threads` threads (0 = defaultThreadCount(), normally all cores; fewer when there are not at least
// `minPerThread` items per thread). Each item must write only its own output slot, so
// results never depend on the thread count; callers accumulate sums sequentially
// afterwards (computeInParallelScatterInOrder does exactly that for element loops).
#include <algorithm>
#include <atomic>
#include <functional>

#include "forward/math/worker_pool.h"

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
// On several threads the batches are half that size and alternate between the two halves
// of the slots: the calling thread scatters one batch while the others compute the next
// (then it joins them), so the sequential scatter no longer leaves the other cores idle.
// compute must therefore not read what scatter writes.
template <typename Compute, typename Scatter>
void computeInParallelScatterInOrder(int n, int batchSize, int threads, const Compute& compute, const Scatter& scatter,
                                     int minPerThread = 256) {
  if (n <= 0) return;
  const int half = batchSize / 2;
  const int t = std::min(threads > 0 ? threads : defaultThreadCount(), half / std::max(1, minPerThread));
  if (t < 2) {
    for (int first = 0; first < n; first += batchSize) {
      const int count = std::min(batchSize, n - first);
      forEachRangeInParallel(count, threads, [&](int begin, int end) {
        for (int slot = begin; slot < end; ++slot) compute(first + slot, slot);
      }, minPerThread);
      for (int slot = 0; slot < count; ++slot) scatter(first + slot, slot);
    }
    return;
  }
  // Batch k: items [k half, (k + 1) half), slots from (k % 2) half.
  const int batches = (n + half - 1) / half;
  const auto count = [&](int k) { return std::min(half, n - k * half); };
  const auto scatterBatch = [&](int k) {
    for (int i = 0; i < count(k); ++i) scatter(k * half + i, (k % 2) * half + i);
  };
  for (int k = 0; k < batches; ++k) {
    std::atomic<int> next{0};
    constexpr int kChunk = 32;
    const auto computeBatch = [&] {
      const int items = count(k);
      for (int c = next.fetch_add(kChunk); c < items; c = next.fetch_add(kChunk))
        for (int i = c; i < std::min(c + kChunk, items); ++i) compute(k * half + i, (k % 2) * half + i);
    };
    runOnWorkers(t, [&](int part) {
      if (part == 0 && k > 0) scatterBatch(k - 1);
      computeBatch();
    });
  }
  scatterBatch(batches - 1);
}

}  // namespace softfit
