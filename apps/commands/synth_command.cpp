#include "apps/commands/synth_command.h"
#include "apps/commands/device_option.h"
#include "apps/commands/option_checks.h"
#include "apps/commands/output_folder.h"

#include <cstdio>
#include <filesystem>
#include <memory>

#include "adjoint/material_regions.h"
#include "adjoint/parameter_space.h"
#include "adjoint/scene_gradient_check.h"
#include "forward/errors.h"
#include "forward/scene/scene_loader.h"
#include "observations/camera_json.h"
#include "observations/camera_rig.h"
#include "observations/capture_io.h"
#include "observations/displacement_observations.h"
#include "observations/render_capture.h"
#include "optim/ground_truth.h"

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
};

void runSynth(const SynthOptions& options) {
  requireOutputFolder(options.output);
  SceneDescription description = loadScene(options.scene);
  applyDevice(options.device, description.integrator);
  if (options.steps >= 0) description.steps = options.steps;
  BuiltScene scene = buildScene(description);
  PhysicalModel& model = *scene.model;
  Simulator simulator(model, makeIntegrator(description.integrator), description.dt);
  const std::vector<State> states = simulator.run(scene.initial, description.steps, true).states;

  std::vector<Camera> cameras;
  if (!options.cameras.empty()) {
    cameras = readCameras(options.cameras);
  } else {
    // Around the whole motion, so the body stays in view.
    Vec3 lo = Vec3::Constant(INFINITY), hi = Vec3::Constant(-INFINITY);
    for (const State& s : states) {
      Vec3 a, b;
      boundingBox(s.x, a, b);
      lo = lo.cwiseMin(a);
      hi = hi.cwiseMax(b);
    }
    CameraRigOptions rig;
    rig.width = rig.height = options.resolution;
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
  const Capture capture = renderCapture(states, surface, cameras, noise, options.stride, description.dt);
  writeCapture(options.output, capture);
  writeCameras((std::filesystem::path(options.output) / "cameras.json").string(), cameras);
  writeDisplacementObservations((std::filesystem::path(options.output) / "displacements.json").string(),
                                displacementObservationsFromStates(states, {}, options.stride, description.dt));

  // The true values of every parameter the scene defines.
  std::string names = "E,nu,density,alpha1,alpha2,gravity,velocity,angular_velocity";
  if (model.ground) names += ",ground";
  for (size_t r = 0; r < description.material.regions.size() + 1 && !description.material.regions.empty(); ++r)
    names += ",E@" + std::to_string(r) + ",nu@" + std::to_string(r) + ",density@" + std::to_string(r);
  const InitialMotion motion = initialMotion(description, model);
  ParameterSpace space(parseParameterList(names), motion, materialRegionOfElements(description.material, model));
  const VecX values = space.values(model);
  std::map<std::string, double> truth;
  for (int i = 0; i < space.size(); ++i) truth[space.names()[i]] = values[i];
  writeGroundTruth((std::filesystem::path(options.output) / "truth.json").string(), truth);
  std::printf("softfit synth: %s -> %s\n  %d frames (every %d of %d steps), %d cameras, %d points in all, noise sigma %g\n"
              "  wrote capture.json, cameras.json, displacements.json and truth.json\n",
              options.scene.c_str(), options.output.c_str(), capture.frameCount(), options.stride, description.steps,
              static_cast<int>(cameras.size()), capture.totalPoints(), options.noise);
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
  cmd->add_option("--resolution", options->resolution, "Image size of the default rig's cameras")
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
  cmd->callback([options] { runSynth(*options); });
}

}  // namespace softfit::apps
