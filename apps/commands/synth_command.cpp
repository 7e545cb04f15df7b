#include "apps/commands/synth_command.h"
#include "apps/commands/device_option.h"
#include "apps/commands/option_checks.h"

#include <cstdio>
#include <filesystem>
#include <memory>

#include "forward/errors.h"
#include "forward/io/output_folder.h"
#include "scene/scene_loader.h"
#include "synth/synthetic_capture.h"

namespace softfit::apps {

namespace {

struct SynthOptions {
  std::string device = "cpu";
  std::string scene;
  std::string output = "results/capture";
  int steps = -1;
  SyntheticCaptureOptions capture;  // cameras, noise, stride, sensor, background, rest frames
};

void runSynth(const SynthOptions& options) {
  checkOutputFolder(options.output, {options.scene, options.capture.cameras}, "-o");
  SceneDescription description = loadScene(options.scene);
  applyDevice(options.device, description.integrator);
  if (options.steps >= 0) description.steps = options.steps;
  SyntheticCaptureOptions o = options.capture;
  o.names = {"-o", "--sensor", "--rest-frames", "--camera-count", "--resolution", "--stride", "--noise", "--background"};
  const SyntheticCaptureSummary summary = writeSyntheticCapture(description, options.output, o);
  const bool raw = o.raw();
  char noiseText[64];
  std::snprintf(noiseText, sizeof noiseText, "noise sigma %g", o.noise);
  const std::string what = raw ? "sensor " + o.sensor + (o.background ? " with background" : "") : noiseText;
  const int rest = o.restFrameCount();
  const std::string restText = rest > 0 ? " + " + std::to_string(rest) + " rest frames" : "";
  std::printf("softfit synth: %s -> %s\n  %d frames (every %d of %d steps)%s, %d cameras, %lld %s in all, "
              "%s\n  wrote capture.json%s, cameras.json, displacements.json, truth.json and run_complete.txt\n",
              options.scene.c_str(), options.output.c_str(), summary.frames, o.stride, description.steps,
              restText.c_str(), summary.cameras, summary.points, raw ? "measured pixels" : "points", what.c_str(),
              raw ? " + depth/ (16-bit PNGs, intrinsics)" : "");
}

}  // namespace

void addSynthCommand(CLI::App& app) {
  auto options = std::make_shared<SynthOptions>();
  CLI::App* cmd = app.add_subcommand("synth", "Simulate a scene and write a synthetic capture for `softfit fit`");
  cmd->add_option("scene", options->scene, "Scene JSON file (the ground truth)")->required();
  cmd->add_option("-o,--output", options->output, "Capture folder")->capture_default_str();
  addDeviceOption(cmd, options->device);
  cmd->add_option("--cameras", options->capture.cameras, "Camera JSON (default: a rig of --camera-count cameras)");
  cmd->add_option("--camera-count", options->capture.cameraCount, "Cameras in the default rig")
      ->check(integerAtLeast(1))
      ->capture_default_str();
  CLI::Option* resolution =
      cmd->add_option("--resolution", options->capture.resolution,
                      "Image size of the default rig's cameras (raw captures: 320 x 240 unless given)")
          ->check(integerBetween(1, 10000))
          ->capture_default_str();
  cmd->add_option("--noise", options->capture.noise, "Gaussian noise sigma on every point coordinate")
      ->check(numberAtLeast(0))
      ->capture_default_str();
  cmd->add_option("--seed", options->capture.seed, "Noise seed")->capture_default_str();
  cmd->add_option("--stride", options->capture.stride, "Simulation steps per captured frame")
      ->check(integerAtLeast(1))
      ->capture_default_str();
  cmd->add_option("--steps", options->steps, "Override the scene's number of steps")->check(integerAtLeast(0));
  cmd->add_option("--sensor", options->capture.sensor,
                  "Depth sensor model: ideal, kinect (Kinect v1 noise, quantization, holes, flying pixels), or a "
                  "sensor JSON file (observations/README.md); all but ideal write raw depth PNGs")
      ->capture_default_str();
  cmd->add_flag("--background", options->capture.background,
                "Render the floor, a back wall and clutter into raw depth PNGs (never simulated)");
  cmd->add_option("--rest-frames", options->capture.restFrames,
                  "Frames of the body at rest before the motion (default 5 with --sensor kinect or --background, "
                  "else 0)");
  cmd->callback([options, resolution] {
    options->capture.resolutionGiven = resolution->count() > 0;
    runSynth(*options);
  });
}

}  // namespace softfit::apps
