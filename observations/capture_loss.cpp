#include "observations/capture_loss.h"

#include <cmath>

#include "forward/errors.h"
#include "observations/observation_json.h"
#include "observations/robust_kernel.h"

namespace softfit {

CaptureLoss::CaptureLoss(Capture capture, const PointCloudLossOptions& options, const std::string& kind)
    : capture_(std::move(capture)), options_(options), where_(kind + " (" + capture_.source + ")") {
  if (options_.stride < 1) throw InputError(where_ + ": stride must be at least 1");
  if (!(options_.weight >= 0.0) || !std::isfinite(options_.weight)) throw InputError(where_ + ": weight must be >= 0");
  if (!(options_.maxOutside >= 0.0) || !std::isfinite(options_.maxOutside))
    throw InputError(where_ + ": max_outside must be >= 0");
  if (!(options_.noiseSigma >= 0.0) || !std::isfinite(options_.noiseSigma))
    throw InputError(where_ + ": noise sigma must be >= 0");
  withErrorPrefix(where_, [&] {
    validateRobustKernel(RobustKernel{options_.huberDelta});
  });
  if (capture_.frames.empty()) throw InputError(where_ + ": the capture has no frames");
  for (int k = 0; k < capture_.frameCount(); ++k) {
    const CaptureFrame& f = capture_.frames[k];
    if (f.frame != k) throw InputError(where_ + ": capture frames must be numbered 0..N-1 in order");
    if (!(f.weight >= 0.0) || !std::isfinite(f.weight))
      throw InputError(where_ + ": frame " + std::to_string(k) + ": weight must be >= 0");
    checkFinitePoints(f.cloud, where_ + ": frame " + std::to_string(k));
  }
  // Data that cannot constrain anything must not end in a "converged" fit of the start.
  bool anyData = false;
  for (const CaptureFrame& f : capture_.frames) anyData = anyData || (f.weight > 0.0 && !f.cloud.empty());
  if (!anyData)
    throw InputError(where_ + ": no frame has points with a positive weight (every frame is empty or weighted 0): "
                     "nothing to fit");
}

int CaptureLoss::frameAtStep(int step) const {
  if (step < 0 || step % options_.stride != 0) return -1;
  const int f = step / options_.stride;
  return f < capture_.frameCount() ? f : -1;
}

double CaptureLoss::frameWeight(int f) const {
  const CaptureFrame& frame = capture_.frames[f];
  double weight = options_.weight * frame.weight;
  if (options_.averageOverPoints && !frame.cloud.empty()) weight /= frame.cloud.size();
  return weight;
}

void CaptureLoss::appendResiduals(int step, const State& state, std::vector<double>& r) const {
  const int f = frameAtStep(step);
  if (f < 0 || capture_.frames[f].cloud.empty() || !residualForm()) return;
  const std::size_t first = r.size();
  withErrorPrefix(where_ + ": step " + std::to_string(step) + " (capture frame " + std::to_string(f) + ")",
                  [&] { frameDistances(capture_.frames[f].cloud, state.x, r); });
  const double c = std::sqrt(frameWeight(f));
  for (std::size_t i = first; i < r.size(); ++i) r[i] *= c;
}

bool CaptureLoss::appendResidualScales(int step, std::vector<double>& c) const {
  if (!residualForm()) return false;
  const int f = frameAtStep(step);
  if (f < 0) return true;
  c.insert(c.end(), capture_.frames[f].cloud.size(), std::sqrt(frameWeight(f)));
  return true;
}

double CaptureLoss::evaluate(int step, const State& state, VecX& gx, VecX& /*gv*/) {
  const int f = frameAtStep(step);
  if (f < 0) return 0.0;
  const CaptureFrame& frame = capture_.frames[f];
  if (frame.cloud.empty()) return 0.0;
  const double weight = frameWeight(f);
  return withErrorPrefix(where_ + ": step " + std::to_string(step) + " (capture frame " + std::to_string(f) + ")",
                         [&] { return frameCost(frame.cloud, state.x, weight, gx); });
}

}  // namespace softfit
