#pragma once
// Raw synthetic captures, as a real depth-camera rig records them: per camera and per
// frame a 16-bit depth PNG (depth_png.h) with the sensor's errors (depth_sensor_model.h),
// static scenery in view (static_background.h), no masks, plus "rest frames" of the body
// at rest before the motion starts. Written as a capture folder whose capture.json lists
// "depth" entries (observations/README.md):
//   DIR/capture.json
//   DIR/depth/camC.json                  intrinsics + pose + depth_scale of camera C
//   DIR/depth/frame_FFFFFF_camC.png      motion frame F (simulation step F * stride)
//   DIR/depth/rest_FFFFFF_camC.png       rest frame F (the body at states[0], static)
// Random stream: one GaussianNoise(seed), used by rest frame 0..K-1 and then motion frame
// 0..N-1, each frame by camera 0..C-1, each image in the sensor model's order, so every
// rest frame has its own, independent noise.
#include <cstdint>
#include <string>
#include <vector>

#include "forward/integrators/time_integrator.h"
#include "grid/embedded_surface.h"
#include "observations/depth_sensor_model.h"
#include "observations/static_background.h"

namespace softfit {

struct RawCaptureOptions {
  DepthSensorModel sensor;    // DepthSensorModel::ideal() = the rendered depth
  std::uint64_t seed = 0;     // sensor noise seed
  int stride = 1;             // simulation steps per motion frame
  int restFrames = 0;         // frames of the body at rest (states[0]) before the motion
  double simulationDt = 0.0;  // capture dt = stride * simulationDt (> 0)
  double depthScale = 0.001;  // metres per PNG unit (Kinect / OpenNI millimetres)
  std::string description;    // capture.json "description" (optional)
};

struct RawCaptureSummary {
  int frames = 0, restFrames = 0, images = 0;
  long long measuredPixels = 0;  // non-zero pixels over all written images
};

// Renders the body surface at states[f * stride] (and at states[0] for rest frames),
// together with `background` (may be empty), through every camera and the sensor model,
// and writes the folder above. Depths outside the PNG's range (below half a unit or above
// 65535 units) are written as 0. Throws InputError for no states or cameras, stride < 1,
// restFrames < 0, simulationDt <= 0, depthScale <= 0, an invalid sensor model, a frame in
// which no camera measures anything, or a file that cannot be written. capture.json is
// written last, so a failed run leaves no capture.json behind.
RawCaptureSummary writeRawDepthCapture(const std::string& dir, const std::vector<State>& states,
                                       const EmbeddedSurface& surface, const StaticGeometry& background,
                                       const std::vector<Camera>& cameras, const RawCaptureOptions& options);

}  // namespace softfit
