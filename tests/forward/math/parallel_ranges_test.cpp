#include "forward/math/parallel_ranges.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <thread>
#include <stdexcept>
#include <vector>

namespace softfit {
namespace {

TEST(ParallelRanges, EveryItemRunsExactlyOnceForAnyThreadCount) {
  for (int n : {0, 1, 255, 256, 1000, 4099})
    for (int threads : {0, 1, 2, 3, 7}) {
      std::vector<int> hits(n, 0);
      forEachRangeInParallel(n, threads, [&](int begin, int end) {
        for (int i = begin; i < end; ++i) ++hits[i];
      }, 1);
      for (int i = 0; i < n; ++i) ASSERT_EQ(hits[i], 1) << "n " << n << " threads " << threads << " item " << i;
    }
}

// An exception thrown by the work on any thread reaches the caller (OpenMP workers
// included), and the next call runs normally.
TEST(ParallelRanges, ExceptionsReachTheCaller) {
  for (int threads : {1, 2, 4})
    EXPECT_THROW(forEachRangeInParallel(1000, threads, [](int begin, int end) {
      if (end == 1000) throw std::runtime_error("last range");
    }, 1), std::runtime_error) << threads;
  std::vector<int> hits(100, 0);
  forEachRangeInParallel(100, 2, [&](int begin, int end) {
    for (int i = begin; i < end; ++i) ++hits[i];
  }, 1);
  for (int h : hits) EXPECT_EQ(h, 1);
}

// Per-item values computed in parallel, summed in item order: the same bits as a serial
// loop for every thread count and batch size.
TEST(ParallelRanges, OrderedScatterSumsAreBitIdenticalToASerialLoop) {
  const int n = 5000;
  const auto item = [](int i) { return std::sin(0.37 * i) / (1.0 + 1e-3 * i); };
  double serial = 0.0;
  for (int i = 0; i < n; ++i) serial += item(i);
  for (int threads : {1, 2, 3, 8})
    for (int batch : {1, 97, 600, 4096, 100000}) {  // from 64 on: pipelined on 2+ threads
      std::vector<double> slots(std::min(batch, n));
      std::vector<int> order;
      double sum = 0.0;
      int overwritten = 0;
      computeInParallelScatterInOrder(
          n, batch, threads, [&](int i, int slot) { slots[slot] = item(i); },
          [&](int i, int slot) {
            if (slots[slot] != item(i)) ++overwritten;  // a slot reused before its scatter
            sum += slots[slot];
            order.push_back(i);
          },
          16);
      EXPECT_EQ(overwritten, 0) << "threads " << threads << " batch " << batch;
      EXPECT_EQ(sum, serial) << "threads " << threads << " batch " << batch;
      ASSERT_EQ(static_cast<int>(order.size()), n);
      for (int i = 0; i < n; ++i) ASSERT_EQ(order[i], i);
    }
}

// A region started inside a running part, or from a second thread while the workers are
// busy, runs serially on its caller: no deadlock, every item once.
TEST(ParallelRanges, NestedAndConcurrentRegionsRunEveryItemOnce) {
  std::vector<std::atomic<int>> hits(4000);
  forEachRangeInParallel(4, 2, [&](int begin, int end) {
    for (int k = begin; k < end; ++k)
      forEachRangeInParallel(1000, 2, [&](int b, int e) {
        for (int i = b; i < e; ++i) ++hits[1000 * k + i];
      }, 1);
  }, 1);
  for (const auto& h : hits) ASSERT_EQ(h.load(), 1);
  std::vector<int> a(5000, 0), b(5000, 0);
  std::thread other([&] {
    for (int r = 0; r < 50; ++r)
      forEachRangeInParallel(5000, 2, [&](int begin, int end) {
        for (int i = begin; i < end; ++i) ++a[i];
      }, 1);
  });
  for (int r = 0; r < 50; ++r)
    forEachRangeInParallel(5000, 3, [&](int begin, int end) {
      for (int i = begin; i < end; ++i) ++b[i];
    }, 1);
  other.join();
  for (int i = 0; i < 5000; ++i) ASSERT_EQ(a[i] + b[i], 100);
}

}  // namespace
}  // namespace softfit
