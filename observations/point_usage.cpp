#include "observations/point_usage.h"

#include "forward/errors.h"

namespace softfit {

std::vector<FramePointUsage> pointUsage(CaptureLoss& loss, const std::vector<State>& states) {
  std::vector<FramePointUsage> usage;
  for (int step = 0; step < static_cast<int>(states.size()); ++step) {
    const int f = loss.frameAtStep(step);
    if (f < 0) continue;
    const CaptureFrame& frame = loss.capture().frames[f];
    VecX gx = VecX::Zero(states[step].x.size()), gv = VecX::Zero(states[step].v.size());
    loss.evaluate(step, states[step], gx, gv);
    usage.push_back({f, frame.weight, static_cast<int>(frame.cloud.size()), frame.cloud.empty() ? 0 : loss.lastDropped()});
  }
  return usage;
}

std::string formatPointUsage(const std::vector<FramePointUsage>& usage) {
  std::string out = "  points used / dropped per frame:";
  for (const FramePointUsage& u : usage)
    out += " " + std::to_string(u.frame) + ": " + std::to_string(u.points - u.dropped) + "/" + std::to_string(u.dropped);
  return out + "\n";
}

void requireUsablePoints(const CaptureLoss& loss, const std::vector<FramePointUsage>& usage) {
  int used = 0, dropped = 0;
  for (const FramePointUsage& u : usage) {
    if (u.weight > 0.0) used += u.points - u.dropped;
    dropped += u.dropped;
  }
  if (used == 0)
    throw InputError(loss.capture().source + ": no point is usable at the start (" + std::to_string(dropped) +
                     " dropped: no deformed cell within reach of them, e.g. every point outside the grid): "
                     "nothing to fit");
}

}  // namespace softfit
