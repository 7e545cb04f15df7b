#pragma once
// Runs work(begin, end) over contiguous ranges of [0, n) on up to `threads` threads
// (0 = all hardware threads; fewer when there are not at least 256 items per thread).
// Each item must write only its own output slot, so results never depend on the thread
// count; callers accumulate sums sequentially afterwards.
#include <functional>

namespace softfit {

void forEachPointInParallel(int n, int threads, const std::function<void(int begin, int end)>& work);

}  // namespace softfit
