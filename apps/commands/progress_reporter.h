#pragma once
// One progress line for long runs: rewritten in place on a terminal, printed every ~5%
// otherwise (logs, CI).
#include <chrono>
#include <cstdio>
#include <string>

namespace softfit::apps {

class ProgressReporter {
 public:
  ProgressReporter(std::string label, int total, bool quiet);
  void update(int done, const std::string& detail);
  void finish();

 private:
  std::string label_;
  int total_;
  bool quiet_, terminal_;
  int lastPrinted_ = -1;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace softfit::apps
