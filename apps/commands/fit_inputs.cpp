#include "apps/commands/fit_inputs.h"
#include "apps/commands/device_option.h"
#include "apps/commands/option_checks.h"

#include <cmath>
#include <cstdio>
#include <sstream>

#include "adjoint/checkpointing.h"
#include "forward/errors.h"
#include "forward/integrators/simulator.h"
#include "forward/mesh/text_tokenizer.h"
#include "observations/point_usage.h"
#include "scene/scene_loader.h"

namespace softfit::apps {

void addFitInputOptions(CLI::App* cmd, FitInputOptions& o) {
  o.loss.names = {"--loss", "--point-cost", "--noise-sigma"};
  cmd->add_option("scene", o.scene, "Scene JSON (geometry, boundary conditions, initial guess)")->required();
  cmd->add_option("--observations", o.observations, "Capture folder (capture.json or displacements.json)")
      ->required();
  addDeviceOption(cmd, o.device);
  cmd->add_option("--loss", o.loss.loss, "auto, points or displacements")->capture_default_str();
  cmd->add_option("--huber", o.loss.huber, "Huber delta on point distances (0 = squared)")
      ->check(numberAtLeast(0))
      ->capture_default_str();
  cmd->add_option("--noise-sigma", o.loss.noiseSigma,
                  "Known Gaussian noise (m, per coordinate) on the points: corrects the closest-point cost's noise "
                  "bias, is the mixture and pixel costs' sigma and sets the noise of the bootstrap's synthetic captures (0 = none)")
      ->capture_default_str();  // checked by the loss ("noise sigma must be >= 0", exit 2)
  cmd->add_option("--point-cost", o.loss.pointCost,
                  "point-cloud cost: auto (sdf for grid scenes without --noise-sigma or with fit's --bootstrap-steps, else "
                  "closest), closest (point to deformed surface), sdf (thesis grid cost: reference SDF at the "
                  "located points), mixture (noise-aware: the points' likelihood under --noise-sigma, the model "
                  "rendered by the capture's cameras) or pixel (each point against the model's point at the same "
                  "camera pixel: frames of one depth image each, cameras.json that camera; outliers beyond 4 "
                  "--noise-sigma)")
      ->capture_default_str();
  cmd->add_option("--cameras", o.loss.cameras,
                  "Camera JSON of the capture, for the mixture and pixel costs and fit's bootstrap (default: DIR/cameras.json)");
  cmd->add_option("--checkpointing", o.checkpointing, "all, periodic or binomial")->capture_default_str();
  cmd->add_option("--max-states", o.maxStates, "Binomial checkpointing budget")
      ->check(integerAtLeast(1))
      ->capture_default_str();
}

void loadFitInputs(const FitInputOptions& options, FitInputs& inputs) {
  inputs.description = loadScene(options.scene);
  applyDevice(options.device, inputs.description.integrator);
  inputs.scene = buildScene(inputs.description);
  inputs.observationDir = options.observations;
  inputs.observations = loadFitObservations(options.observations, inputs.scene, inputs.description.dt, options.loss);
  const FitObservations& o = inputs.observations;
  const std::string label = "softfit " + options.command;
  if (o.capture) {
    std::printf("%s: %s, %d point-cloud frames (%d points) from %s, %s point cost\n", label.c_str(),
                options.scene.c_str(), o.frames, o.capture->totalPoints(), options.observations.c_str(),
                o.cost == "sdf" ? "grid SDF" : "closest-point");
  } else {
    std::printf("%s: %s, %d displacement frames from %s\n", label.c_str(), options.scene.c_str(), o.frames,
                options.observations.c_str());
  }
}

FitSetup inputsFitSetup(FitInputs& inputs, const FitInputOptions& options) {
  CheckpointOptions checkpoints;
  checkpoints.strategy = parseCheckpointStrategy(options.checkpointing, "--checkpointing");
  checkpoints.maxStates = options.maxStates;
  return makeFitSetup(trajectorySetup(inputs.description, inputs.scene), inputs.observations, checkpoints);
}

std::map<std::string, double> parseStart(const std::string& text, const std::string& option) {
  std::map<std::string, double> values;
  std::stringstream stream(text);
  std::string item;
  while (std::getline(stream, item, ',')) {
    if (item.empty()) continue;
    const auto eq = item.find('=');
    if (eq == std::string::npos) throw InputError(option + ": \"" + item + "\" is not name=value");
    const std::string name = item.substr(0, eq);
    double value = 0.0;
    if (!parseReal(item.substr(eq + 1), value) || !std::isfinite(value))
      throw InputError(option + ": \"" + item + "\": the value of " + name + " is not a finite number");
    if (!values.emplace(name, value).second) throw InputError(option + ": " + name + " is given twice");
  }
  return values;
}

std::string formatPoint(const std::vector<std::string>& names, const VecX& p) {
  std::string out;
  char buffer[64];
  for (size_t i = 0; i < names.size(); ++i) {
    std::snprintf(buffer, sizeof(buffer), "%s%s=%.6g", i ? " " : "", names[i].c_str(), p[i]);
    out += buffer;
  }
  return out;
}

void checkPointUsage(FitInputs& inputs, const FitProblem& problem, const VecX& p0) {
  CaptureLoss* points = inputs.observations.pointLoss;
  if (!points) return;
  // A copy of the problem, so the fit's bits do not depend on this run.
  FitProblem trial(problem);
  std::vector<FramePointUsage> usage;
  try {
    trial.runAt(p0, [&](const TrajectorySetup& trajectory) { usage = pointUsage(*points, simulate(trajectory, true).states); });
  } catch (const SolveError&) {  // the search reports a failed forward solve itself
  }
  if (!usage.empty()) {
    std::printf("%s", formatPointUsage(usage).c_str());
    requireUsablePoints(*points, usage);
  }
}

}  // namespace softfit::apps
