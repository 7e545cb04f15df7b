#pragma once
// How many points of each capture frame a point-cloud loss uses and drops on a given
// trajectory (the grid SDF cost drops points with no deformed cell within reach), so a
// fit can say so and refuse data that cannot constrain it.
#include <string>
#include <vector>

#include "forward/types.h"
#include "observations/capture_loss.h"

namespace softfit {

struct FramePointUsage {
  int frame = 0;
  double weight = 0.0;
  int points = 0;
  int dropped = 0;
};

// Evaluates `loss` at the observed steps of `states` (states[k] = simulation step k).
std::vector<FramePointUsage> pointUsage(CaptureLoss& loss, const std::vector<State>& states);
// "  points used / dropped per frame: 0: 120/0, 1: 118/2, ..." (one line).
std::string formatPointUsage(const std::vector<FramePointUsage>& usage);
// InputError naming the capture when no frame of positive weight has a used point.
void requireUsablePoints(const CaptureLoss& loss, const std::vector<FramePointUsage>& usage);

}  // namespace softfit
