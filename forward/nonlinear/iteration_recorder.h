#pragma once
// Solver-time clock and G(x_k) history for the step solvers: time spent only on the
// history (extra objective evaluations) is excluded from the solver time.
#include <chrono>
#include <vector>

#include "forward/nonlinear/step_solver.h"

namespace softfit {

class IterationRecorder {
 public:
  IterationRecorder(bool enabled, std::vector<StepIterate>& history)
      : enabled_(enabled), history_(history), start_(Clock::now()) {
    history_.clear();
  }
  // Solver seconds since construction.
  double elapsed() const { return std::chrono::duration<double>(Clock::now() - start_).count() - excluded_; }
  // Records G(x_k) = value (already known to the solver).
  void record(int iteration, double value) {
    if (enabled_) history_.push_back({iteration, value, elapsed()});
  }
  // Records G(x_k) from an evaluation needed only for the history (not timed).
  template <typename ValueFunction>
  void recordEvaluated(int iteration, ValueFunction&& value) {
    if (!enabled_) return;
    const double t = elapsed();
    const auto before = Clock::now();
    history_.push_back({iteration, value(), t});
    excluded_ += std::chrono::duration<double>(Clock::now() - before).count();
  }

 private:
  using Clock = std::chrono::steady_clock;
  bool enabled_;
  std::vector<StepIterate>& history_;
  Clock::time_point start_;
  double excluded_ = 0.0;
};

}  // namespace softfit
