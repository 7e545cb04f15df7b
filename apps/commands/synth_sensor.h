#pragma once
// `softfit synth --sensor ideal|kinect --background --rest-frames K`: raw depth captures
// (16-bit depth PNGs + intrinsics per camera and frame, no masks, rest frames) as a real
// rig records them, instead of the point-cloud capture (observations/raw_depth_capture.h).
#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "scene/scene_description.h"
#include "observations/camera_rig.h"
#include "observations/raw_depth_capture.h"

namespace softfit::apps {

struct SynthSensorOptions {
  std::string sensor = "ideal";  // parsed by sensorModelFromOption
  bool background = false;
  int restFrames = -1;           // -1: 5 for raw captures, 0 otherwise
  bool resolutionGiven = false;  // --resolution on the command line

  // Raw depth images instead of point clouds: a sensor other than ideal, or a background.
  bool raw() const { return sensor != "ideal" || background; }
  int restFrameCount() const { return restFrames >= 0 ? restFrames : (raw() ? 5 : 0); }
};

// Adds --sensor, --background and --rest-frames to `command`.
void addSynthSensorOptions(CLI::App* command, SynthSensorOptions& options);

// "ideal" or "kinect"; anything else is an InputError naming --sensor.
DepthSensorModel sensorModelFromOption(const std::string& name);

// The default rig of a raw capture without --resolution: Kinect v1's QVGA depth mode,
// 320 x 240 with its 43 degree vertical field of view (Khoshelham & Elberink 2012: 57 x 43).
void applyKinectLikeRig(CameraRigOptions& rig);

// Renders and writes the raw capture of `states` into `dir` (with the scene's floor,
// wall and clutter when options.background), returning its summary.
RawCaptureSummary writeSynthRawCapture(const std::string& dir, const SynthSensorOptions& options,
                                       const SceneDescription& description, const std::vector<State>& states,
                                       const EmbeddedSurface& surface, const std::vector<Camera>& cameras,
                                       const Vec3& motionMin, const Vec3& motionMax, std::uint64_t seed, int stride);

}  // namespace softfit::apps
