#include "apps/commands/synth_command.h"
#include "apps/commands/device_option.h"
#include "apps/commands/option_checks.h"
#include "apps/commands/output_folder.h"
#include "apps/commands/synth_sensor.h"

#include <cstdio>
#include <filesystem>
#include <memory>

#include "adjoint/parameter_space.h"
#include "adjoint/scene_gradient_check.h"
#include "forward/errors.h"
#include "forward/io/run_marker.h"
#include "scene/scene_loader.h"
#include "observations/camera_json.h"
#include "observations/camera_rig.h"
#include "observations/capture_io.h"
#include "observations/displacement_observations.h"
#include "observations/render_capture.h"
#include "optim/report/ground_truth.h"

namespace softfit::apps {

namespace {

struct SynthOptions {
  std::string device = "cpu";
  std::string scene;
  std::string output = "results/capture";
  std::string cameras;  // cams.json; empty = a rig around the body
  int cameraCount = 9;
  int resolution = 80;
  double noise = 0.0;
  std::uint64_t seed = 1;
  int stride = 1;
  int steps = -1;
  SynthSensorOptions sensor;  // --sensor, --background, --rest-frames (synth_sensor.h)
};

void runSynth(const SynthOptions& options) {
  requireOutputFolder(options.output);
  beginRun(options.output, {"capture.json", "cameras.json", "displacements.json", "truth.json"});  // an earlier run's
  const bool raw = options.sensor.raw();
  sensorModelFromOption(options.sensor.sensor);  // an unknown --sensor fails before the simulation
  if (options.sensor.restFrames < -1) throw InputError("--rest-frames: must be >= 0");
  if (raw && options.noise != 0.0)
    throw InputError("--noise: isotropic point noise applies to point-cloud captures; with --sensor / --background "
                     "the sensor model makes the noise");
  SceneDescription description = loadScene(options.scene);
  applyDevice(options.device, description.integrator);
  if (options.steps >= 0) description.steps = options.steps;
  BuiltScene scene = buildScene(description);
  PhysicalModel& model = *scene.model;
  const std::vector<State> states = simulate(trajectorySetup(description, scene), true).states;

  // The whole motion's bounding box: the rig keeps the body in view, the background clear of it.
  Vec3 lo = Vec3::Constant(INFINITY), hi = Vec3::Constant(-INFINITY);
  for (const State& s : states) {
    Vec3 a, b;
    boundingBox(s.x, a, b);
    lo = lo.cwiseMin(a);
    hi = hi.cwiseMax(b);
  }
  std::vector<Camera> cameras;
  if (!options.cameras.empty()) {
    cameras = readCameras(options.cameras);
  } else {
    CameraRigOptions rig;
    rig.width = rig.height = options.resolution;
    if (raw && !options.sensor.resolutionGiven) applyKinectLikeRig(rig);
    rig.layout = description.ground ? CameraLayout::Hemisphere : CameraLayout::Sphere;
    if (description.ground) rig.up = description.ground->normal;
    cameras = camerasAroundBox(lo, hi, options.cameraCount, rig);
  }
  std::filesystem::create_directories(options.output);
  NoiseOptions noise{options.noise, options.seed};
  // Grid scenes: the surface at full reference-sample resolution (the geometry the
  // quadrature and the SDF point cost see), whatever the scene's output surface is.
  const EmbeddedSurface surface =
      scene.isGrid() ? extractEmbeddedSurface(*scene.grid, SurfaceResolution::Samples) : scene.embeddedSurface;
  int frames = 0;
  long long points = 0;
  if (raw) {
    const RawCaptureSummary summary = writeSynthRawCapture(options.output, options.sensor, description, states, surface,
                                                           cameras, lo, hi, options.seed, options.stride);
    frames = summary.frames;
    points = summary.measuredPixels;
  } else {
    Capture capture = renderCapture(states, surface, cameras, noise, options.stride, description.dt);
    const int rest = options.sensor.restFrameCount();
    if (rest > 0)  // the body at rest before the motion, its own noise stream (seed + 1)
      capture.restFrames = renderCapture(std::vector<State>(rest, states[0]), surface, cameras,
                                         NoiseOptions{options.noise, options.seed + 1}, 1, description.dt).frames;
    writeCapture(options.output, capture);
    frames = capture.frameCount();
    points = capture.totalPoints();
  }
  writeCameras((std::filesystem::path(options.output) / "cameras.json").string(), cameras);
  writeDisplacementObservations((std::filesystem::path(options.output) / "displacements.json").string(),
                                displacementObservationsFromStates(states, {}, options.stride, description.dt));

  // The true values of every parameter the scene defines.
  std::string names = "E,nu,density,alpha1,alpha2,gravity,velocity,angular_velocity";
  if (model.ground) names += ",ground";
  std::vector<Parameter> parameters = parseParameterList(names);
  // Each region's values too (read only: body-wide and regional names overlap, which a
  // fit refuses but a list of true values does not mind).
  for (size_t r = 0; r < description.material.regions.size() + 1 && !description.material.regions.empty(); ++r)
    for (const Parameter& p : parseParameterList("E@" + std::to_string(r) + ",nu@" + std::to_string(r) +
                                                 ",density@" + std::to_string(r)))
      parameters.push_back(p);
  ParameterSpace space(parameters, scene.motion, scene.elementRegion);
  const VecX values = space.values(model);
  std::map<std::string, double> truth;
  for (int i = 0; i < space.size(); ++i) truth[space.names()[i]] = values[i];
  writeGroundTruth((std::filesystem::path(options.output) / "truth.json").string(), truth);
  markRunComplete(options.output, "softfit synth: " + std::to_string(frames) + " frames");
  char noiseText[64];
  std::snprintf(noiseText, sizeof noiseText, "noise sigma %g", options.noise);
  const std::string what =
      raw ? "sensor " + options.sensor.sensor + (options.sensor.background ? " with background" : "") : noiseText;
  const int rest = options.sensor.restFrameCount();
  const std::string restText = rest > 0 ? " + " + std::to_string(rest) + " rest frames" : "";
  std::printf("softfit synth: %s -> %s\n  %d frames (every %d of %d steps)%s, %d cameras, %lld %s in all, "
              "%s\n  wrote capture.json%s, cameras.json, displacements.json, truth.json and run_complete.txt\n",
              options.scene.c_str(), options.output.c_str(), frames, options.stride, description.steps,
              restText.c_str(), static_cast<int>(cameras.size()), points,
              raw ? "measured pixels" : "points", what.c_str(), raw ? " + depth/ (16-bit PNGs, intrinsics)" : "");
}

}  // namespace

void addSynthCommand(CLI::App& app) {
  auto options = std::make_shared<SynthOptions>();
  CLI::App* cmd = app.add_subcommand("synth", "Simulate a scene and write a synthetic capture for `softfit fit`");
  cmd->add_option("scene", options->scene, "Scene JSON file (the ground truth)")->required();
  cmd->add_option("-o,--output", options->output, "Capture folder")->capture_default_str();
  addDeviceOption(cmd, options->device);
  cmd->add_option("--cameras", options->cameras, "Camera JSON (default: a rig of --camera-count cameras)");
  cmd->add_option("--camera-count", options->cameraCount, "Cameras in the default rig")
      ->check(integerAtLeast(1))
      ->capture_default_str();
  CLI::Option* resolution =
      cmd->add_option("--resolution", options->resolution,
                      "Image size of the default rig's cameras (raw captures: 320 x 240 unless given)")
          ->check(integerBetween(1, 10000))
          ->capture_default_str();
  cmd->add_option("--noise", options->noise, "Gaussian noise sigma on every point coordinate")
      ->check(numberAtLeast(0))
      ->capture_default_str();
  cmd->add_option("--seed", options->seed, "Noise seed")->capture_default_str();
  cmd->add_option("--stride", options->stride, "Simulation steps per captured frame")
      ->check(integerAtLeast(1))
      ->capture_default_str();
  cmd->add_option("--steps", options->steps, "Override the scene's number of steps")->check(integerAtLeast(0));
  addSynthSensorOptions(cmd, options->sensor);
  cmd->callback([options, resolution] {
    options->sensor.resolutionGiven = resolution->count() > 0;
    runSynth(*options);
  });
}

}  // namespace softfit::apps
