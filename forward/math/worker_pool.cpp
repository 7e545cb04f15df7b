#include "forward/math/worker_pool.h"

#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace softfit {

namespace {

thread_local bool insideRegion = false;

class WorkerPool {
 public:
  ~WorkerPool() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stop_ = true;
    }
    wake_.notify_all();
    for (std::thread& t : threads_) t.join();
  }

  // False when another thread holds the pool (the caller then runs serially).
  bool run(int parts, const std::function<void(int)>& task) {
    std::unique_lock<std::mutex> region(regionMutex_, std::try_to_lock);
    if (!region.owns_lock()) return false;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      while (static_cast<int>(threads_.size()) < parts - 1) {
        const int worker = static_cast<int>(threads_.size()) + 1;
        threads_.emplace_back([this, worker] { workerLoop(worker); });
      }
      task_ = &task;
      parts_ = parts;
      pending_ = parts - 1;
      errors_.assign(parts, nullptr);
      ++generation_;
    }
    wake_.notify_all();
    runPart(0);
    std::unique_lock<std::mutex> lock(mutex_);
    done_.wait(lock, [this] { return pending_ == 0; });
    task_ = nullptr;
    for (const std::exception_ptr& e : errors_)
      if (e) std::rethrow_exception(e);
    return true;
  }

 private:
  void runPart(int part) {
    insideRegion = true;
    try {
      (*task_)(part);
    } catch (...) {
      errors_[part] = std::current_exception();  // own slot: no lock needed
    }
    insideRegion = false;
  }

  void workerLoop(int worker) {
    long long seen = 0;
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
      wake_.wait(lock, [&] { return stop_ || generation_ != seen; });
      if (stop_) return;
      seen = generation_;
      if (worker >= parts_) continue;
      lock.unlock();
      runPart(worker);
      lock.lock();
      if (--pending_ == 0) done_.notify_one();
    }
  }

  std::mutex regionMutex_;  // one region at a time
  std::mutex mutex_;
  std::condition_variable wake_, done_;
  std::vector<std::thread> threads_;
  const std::function<void(int)>* task_ = nullptr;
  std::vector<std::exception_ptr> errors_;
  int parts_ = 0, pending_ = 0;
  long long generation_ = 0;
  bool stop_ = false;
};

WorkerPool& pool() {
  static WorkerPool instance;
  return instance;
}

}  // namespace

void runOnWorkers(int parts, const std::function<void(int part)>& task) {
  if (parts > 1 && !insideRegion && pool().run(parts, task)) return;
  for (int part = 0; part < parts; ++part) task(part);
}

}  // namespace softfit
