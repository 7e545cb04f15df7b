#include "apps/commands/simulate_command.h"
#include "apps/commands/device_option.h"
#include "apps/commands/option_checks.h"

#include <chrono>
#include <cstdio>
#include <memory>

#include "apps/commands/progress_reporter.h"
#include "forward/integrators/simulator.h"
#include "forward/io/output_folder.h"
#include "scene/scene_builder.h"
#include "scene/scene_loader.h"
#include "scene/simulation_writer.h"

namespace softfit::apps {

namespace {

struct SimulateOptions {
  std::string device = "cpu";
  std::string scene;
  std::string output = "results/simulation";
  int steps = -1;
  bool quiet = false;
};

void runSimulate(const SimulateOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  checkOutputFolder(options.output, {options.scene}, "-o");
  SceneDescription description = loadScene(options.scene);
  applyDevice(options.device, description.integrator);
  if (options.steps >= 0) description.steps = options.steps;
  BuiltScene scene = buildScene(description);
  PhysicalModel& model = *scene.model;
  std::printf("softfit simulate: %s\n  %s: %s, material %s, integrator %s, dt %g, %d steps\n",
              options.scene.c_str(), scene.isGrid() ? "grid" : "mesh", scene.summary().c_str(),
              materialModelName(model.elastic().model()).c_str(),
              integratorTypeName(description.integrator.type).c_str(), description.dt, description.steps);

  SimulationWriter writer(options.output, scene, description.output);
  writer.writeFrame(0, scene.initial, description.steps == 0);
  ProgressReporter progress("  step", description.steps, options.quiet);
  const Trajectory trajectory = simulate(trajectorySetup(description, scene), false, [&](const StepReport& r) {
    writer.writeFrame(r.step, *r.state, r.step == r.totalSteps);
    char detail[96];
    std::snprintf(detail, sizeof(detail), "t=%.4g  iterations %d", r.state->time, r.statistics->iterations);
    progress.update(r.step, detail);
  });
  progress.finish();
  writer.finish(trajectory.states.back());
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("  done in %.2f s; wrote %d frames to %s/simulation.pvd%s\n", seconds, writer.framesWritten(),
              options.output.c_str(), description.output.surfaceObj ? " and final_surface.obj" : "");
}

}  // namespace

void addSimulateCommand(CLI::App& app) {
  auto options = std::make_shared<SimulateOptions>();
  CLI::App* cmd = app.add_subcommand("simulate", "Run a scene and write ParaView frames (.pvd/.vtu) and the final surface (.obj)");
  cmd->add_option("scene", options->scene, "Scene JSON file")->required();
  cmd->add_option("-o,--output", options->output, "Output folder")->capture_default_str();
  addDeviceOption(cmd, options->device);
  cmd->add_option("--steps", options->steps, "Override the scene's number of steps")->check(integerAtLeast(0));
  cmd->add_flag("-q,--quiet", options->quiet, "No progress line");
  cmd->callback([options] { runSimulate(*options); });
}

}  // namespace softfit::apps
