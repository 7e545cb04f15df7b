#pragma once
// Persistent worker threads that wait passively (on a condition variable) between
// parallel regions. OpenMP's workers (libgomp) busy-wait after every region and the
// master busy-waits at its closing barrier; on a loaded 2-core machine that was a large
// share of all CPU time (sched_yield / futex churn, sys time ~2/3 of user on the
// cut-cell torus). A passive wake-up costs tens of microseconds, so regions are only
// worth it from about a millisecond of work per thread (callers' thresholds).
#include <functional>

namespace softfit {

// Runs task(0), ..., task(parts - 1) concurrently (task(0) on the calling thread) and
// returns when all have finished; the first exception thrown by a part is rethrown.
// Inside a running part, or while another thread is running a region, the parts run
// one after another on the calling thread (the same results: each part owns its output).
void runOnWorkers(int parts, const std::function<void(int part)>& task);

}  // namespace softfit
