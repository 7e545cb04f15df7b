#include "forward/math/parallel_ranges.h"

#include <thread>
#include <vector>

namespace softfit {

void forEachRangeInParallel(int n, int threads, const std::function<void(int begin, int end)>& work,
                            int minPerThread) {
  if (n <= 0) return;
  int t = threads > 0 ? threads : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  t = std::min(t, std::max(1, n / std::max(1, minPerThread)));  // not worth a thread for fewer items
  if (t <= 1) {
    work(0, n);
    return;
  }
  std::vector<std::thread> pool;
  for (int k = 1; k < t; ++k) {
    const int begin = static_cast<int>(static_cast<long long>(n) * k / t);
    const int end = static_cast<int>(static_cast<long long>(n) * (k + 1) / t);
    pool.emplace_back(work, begin, end);
  }
  work(0, static_cast<int>(static_cast<long long>(n) / t));  // the calling thread takes the first range
  for (std::thread& th : pool) th.join();
}

}  // namespace softfit
