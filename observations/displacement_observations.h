#pragma once
// Displacement observations (thesis 5.4.1): target positions of some or all nodes at some
// frames. File format (JSON, one file per capture):
//   {"dt": 0.01,                                         (optional: seconds per frame)
//    "frames": [{"frame": 0, "weight": 1.0, "nodes": [0, 5, 9],
//                "positions": [[x, y, z], [x, y, z], [x, y, z]]},
//               {"frame": 3, "positions": [[...], ...]}]}      (no "nodes": every node, in order)
// "frame" is the observation frame index (>= 0, each at most once, any order; frames
// may be skipped); "weight" defaults to 1.
#include <string>
#include <vector>

#include "forward/integrators/time_integrator.h"
#include "observations/point_cloud.h"

namespace softfit {

struct DisplacementFrame {
  int frame = 0;          // observation frame index
  double weight = 1.0;    // >= 0
  std::vector<int> nodes; // observed node indices; empty = all nodes, in order
  PointMatrix positions;  // target per observed node (rows match nodes, or all nodes)
};

struct DisplacementObservations {
  double dt = 0.0;  // seconds per frame (0 = not given)
  std::vector<DisplacementFrame> frames;
  std::string source = "<synthetic>";
};

// Frame f = the positions of `nodes` (empty: all nodes) in states[f * stride], for all
// f with f * stride < states.size(); dt = stride * simulationDt. Throws InputError for
// no states, stride < 1, or a node out of range.
DisplacementObservations displacementObservationsFromStates(const std::vector<State>& states,
                                                            const std::vector<int>& nodes, int stride,
                                                            double simulationDt = 0.0, double weight = 1.0);

// Throws InputError naming `path` and the field (e.g. "frames[2].positions[4]") for a
// missing file, invalid JSON, unknown keys, a repeated or negative frame, a negative
// weight, negative or repeated node indices, or a positions / nodes count mismatch.
DisplacementObservations readDisplacementObservations(const std::string& path);
void writeDisplacementObservations(const std::string& path, const DisplacementObservations& observations);

}  // namespace softfit
