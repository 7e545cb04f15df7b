#pragma once
// A capture: the point clouds observed at a sequence of frames (frame f at time f * dt).
// Loaded from a capture folder (capture_io.h) or rendered from a simulated trajectory
// by virtual depth cameras (render_capture.h).
#include <string>
#include <vector>

#include "observations/point_cloud.h"

namespace softfit {

struct CaptureFrame {
  int frame = 0;        // observation frame index
  double weight = 1.0;  // this frame's weight in the cost (>= 0)
  PointCloud cloud;     // world-space points
};

struct Capture {
  double dt = 0.0;                   // seconds between consecutive frames (> 0 when loaded)
  std::vector<CaptureFrame> frames;  // frames 0, 1, ..., frameCount() - 1, in order
  // Optional "rest_frames": the body at rest before the motion starts (frame 0 of the
  // motion), numbered 0, 1, ... like frames; empty when the capture has none.
  std::vector<CaptureFrame> restFrames;
  std::string source;                // capture folder, or "<rendered>"

  int frameCount() const { return static_cast<int>(frames.size()); }
  int totalPoints() const;
};

// The simulation steps per capture frame: round(capture.dt / simulationDt). Throws
// InputError when capture.dt is not a positive integer multiple of simulationDt (within
// a relative 1e-6).
int frameStride(const Capture& capture, double simulationDt);
// The same for any observations `source` with a time step `observedDt`: InputError
// "<source>: dt ... is not an integer multiple of the simulation dt ..." otherwise.
int observationStride(double observedDt, double simulationDt, const std::string& source);

}  // namespace softfit
