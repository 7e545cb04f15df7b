#pragma once
// A synthetic capture of a scene (`softfit synth`, softfit.synth in Python): simulate the
// scene, film it with a camera rig and write a capture folder for `softfit fit`:
//   point clouds (observations/render_capture.h, optional isotropic noise), or, with a
//   sensor other than ideal or a background, raw depth images as a real rig records them
//   (observations/raw_depth_capture.h: 16-bit PNGs + intrinsics, no masks, rest frames);
//   plus cameras.json, displacements.json, truth.json (every parameter's true value) and,
//   last, run_complete.txt (forward/io/run_marker.h).
#include <cstdint>
#include <string>

#include "observations/camera_rig.h"
#include "observations/depth_sensor_model.h"
#include "scene/scene_description.h"

namespace softfit {

struct SyntheticCaptureOptions {
  std::string cameras;           // camera JSON; empty = a rig of cameraCount cameras around the motion
  int cameraCount = 9;
  int resolution = 80;           // image size of the default rig's cameras
  bool resolutionGiven = false;  // raw captures use Kinect's 320 x 240 unless it was given
  double noise = 0.0;            // isotropic point noise sigma (point-cloud captures only)
  std::uint64_t seed = 1;
  int stride = 1;                // simulation steps per captured frame
  std::string sensor = "ideal";  // ideal, kinect or a sensor JSON file (depth_sensor_json.h)
  bool background = false;       // floor, a back wall and clutter in raw depth images
  int restFrames = -1;           // -1: 5 for raw captures, 0 otherwise
  // How error messages name the options (the caller's CLI options or Python arguments).
  struct Names {
    std::string output = "output", sensor = "sensor", restFrames = "rest_frames", cameraCount = "camera_count",
                resolution = "resolution", stride = "stride", noise = "noise", background = "background";
  } names;

  // Raw depth images instead of point clouds: a sensor other than ideal, or a background.
  bool raw() const { return sensor != "ideal" || background; }
  int restFrameCount() const { return restFrames >= 0 ? restFrames : (raw() ? 5 : 0); }
};

struct SyntheticCaptureSummary {
  int frames = 0;
  int cameras = 0;
  long long points = 0;  // points, or measured pixels of a raw capture
};

// The default rig of a raw capture without a resolution: Kinect v1's QVGA depth mode,
// 320 x 240 with its 43 degree vertical field of view (Khoshelham & Elberink 2012: 57 x 43).
void applyKinectLikeRig(CameraRigOptions& rig);

// Simulates `description` and writes its capture into `output` (created; an earlier
// run's files of these names and its marker are removed first). InputError naming the
// option for bad options, before the simulation; SolveError for a failed step.
SyntheticCaptureSummary writeSyntheticCapture(const SceneDescription& description, const std::string& output,
                                              const SyntheticCaptureOptions& options);

}  // namespace softfit
