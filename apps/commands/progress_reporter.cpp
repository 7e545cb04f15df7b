#include "apps/commands/progress_reporter.h"

#include <unistd.h>

#include <algorithm>

namespace softfit::apps {

ProgressReporter::ProgressReporter(std::string label, int total, bool quiet)
    : label_(std::move(label)),
      total_(total),
      quiet_(quiet),
      terminal_(isatty(fileno(stdout)) != 0),
      start_(std::chrono::steady_clock::now()) {}

void ProgressReporter::update(int done, const std::string& detail) {
  if (quiet_) return;
  const int stride = std::max(1, total_ / 20);
  if (!terminal_ && done != total_ && done - lastPrinted_ < stride) return;
  lastPrinted_ = done;
  const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  const double eta = done > 0 ? elapsed / done * (total_ - done) : 0.0;
  std::printf("%s%s %d/%d (%3.0f%%)  %s  elapsed %.1fs  eta %.1fs%s", terminal_ ? "\r" : "", label_.c_str(), done,
              total_, total_ > 0 ? 100.0 * done / total_ : 100.0, detail.c_str(), elapsed, eta,
              terminal_ ? "   " : "\n");
  std::fflush(stdout);
}

void ProgressReporter::finish() {
  if (!quiet_ && terminal_) std::printf("\n");
}

}  // namespace softfit::apps
