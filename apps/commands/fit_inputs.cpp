#include "apps/commands/fit_inputs.h"
#include "apps/commands/device_option.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <sstream>

#include "adjoint/checkpointing.h"
#include "adjoint/parameter_descriptor.h"
#include "forward/errors.h"
#include "forward/integrators/simulator.h"
#include "forward/mesh/text_tokenizer.h"
#include "forward/value_limits.h"
#include "observations/capture_io.h"
#include "observations/displacement_loss.h"
#include "observations/capture_point_loss.h"
#include "observations/point_usage.h"
#include "scene/scene_loader.h"

namespace softfit::apps {

namespace fs = std::filesystem;

void loadFitInputs(const FitInputOptions& options, FitInputs& inputs) {
  inputs.description = loadScene(options.scene);
  applyDevice(options.device, inputs.description.integrator);
  inputs.scene = buildScene(inputs.description);
  inputs.observationDir = options.observations;
  const SceneDescription& description = inputs.description;
  const BuiltScene& scene = inputs.scene;

  // Observations: point clouds (capture.json) or node displacements (displacements.json).
  const fs::path dir(options.observations);
  std::string lossKind = options.loss;
  if (lossKind == "auto") lossKind = fs::exists(dir / "capture.json") ? "points" : "displacements";
  inputs.cost = options.pointCost;
  const std::string label = "softfit " + options.command;
  if (lossKind == "points") {
    inputs.capture = loadCapture(dir.string());
    PointCloudLossOptions& lossOptions = inputs.lossOptions;
    lossOptions.stride = frameStride(*inputs.capture, description.dt);
    lossOptions.huberDelta = options.huber;
    lossOptions.averageOverPoints = true;
    // The noise correction exists for the closest-point cost only; with the sdf cost the
    // noise sigma serves the bootstrap alone (grid + noise: sdf with the bootstrap,
    // bench/README.md "Fits with noisy point clouds").
    std::string& cost = inputs.cost;
    cost = resolvePointCost(cost, scene.isGrid(), options.noiseSigma, options.bootstrapSteps);
    lossOptions.noiseSigma = cost == "sdf" ? 0.0 : options.noiseSigma;
    std::unique_ptr<CaptureLoss> points = makeCapturePointLoss(scene, *inputs.capture, lossOptions, cost);
    inputs.steps = points->lastStep();
    inputs.pointLoss = points.get();
    std::printf("%s: %s, %d point-cloud frames (%d points) from %s, %s point cost\n", label.c_str(),
                options.scene.c_str(), inputs.capture->frameCount(), inputs.capture->totalPoints(),
                options.observations.c_str(), cost == "sdf" ? "grid SDF" : "closest-point");
    inputs.loss = std::move(points);
  } else if (lossKind == "displacements") {
    DisplacementObservations observations = readDisplacementObservations((dir / "displacements.json").string());
    int stride = 1;
    if (observations.dt > 0.0) stride = observationStride(observations.dt, description.dt, observations.source);
    const int frames = static_cast<int>(observations.frames.size());
    auto displacements =
        std::make_unique<DisplacementLoss>(std::move(observations), inputs.scene.model->nodeCount(), stride);
    inputs.steps = displacements->lastStep();
    std::printf("%s: %s, %d displacement frames from %s\n", label.c_str(), options.scene.c_str(), frames,
                options.observations.c_str());
    inputs.loss = std::move(displacements);
  } else {
    throw InputError("--loss = \"" + lossKind + "\": unknown (valid: auto, points, displacements)");
  }
}

FitSetup makeFitSetup(FitInputs& inputs, const FitInputOptions& options) {
  FitSetup setup;
  setup.trajectory = trajectorySetup(inputs.description, inputs.scene);
  setup.trajectory.steps = inputs.steps;  // up to the last observed frame
  setup.loss = inputs.loss.get();
  setup.checkpoints.strategy = parseCheckpointStrategy(options.checkpointing, "--checkpointing");
  setup.checkpoints.maxStates = options.maxStates;
  return setup;
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

void applyStartValues(const std::map<std::string, double>& values, const ParameterSpace& space,
                      const TransformSet& transforms, const std::string& parameterList, VecX& p0,
                      const std::string& option) {
  const std::vector<std::string> names = space.names();
  for (const auto& [name, value] : values) {
    const auto it = std::find(names.begin(), names.end(), name);
    if (it == names.end()) throw InputError(option + ": \"" + name + "\" is not among --params " + parameterList);
    try {  // the parameter's own range, named
      transforms.transforms[it - names.begin()].toInternal(value);
      const double limit = space.parameters()[it - names.begin()].descriptor->magnitudeLimit;
      if (limit > 0.0) requireMagnitude(value, limit, "value");
    } catch (const InputError& e) {
      throw InputError(option + " " + name + ": " + e.what());
    }
    p0[it - names.begin()] = value;
  }
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

void checkPointUsage(FitInputs& inputs, FitProblem& problem, const VecX& p0) {
  if (!inputs.pointLoss) return;
  // The run leaves the model as it found it, so the fit's bits do not depend on it.
  PhysicalModel& model = *inputs.scene.model;
  const ParameterValues before = readParameterValues(model, inputs.scene.motion);
  const State initialBefore = problem.initial();
  problem.apply(p0);
  std::vector<FramePointUsage> usage;
  try {
    usage = pointUsage(*inputs.pointLoss, simulate(problem.setup().trajectory, true).states);
  } catch (const SolveError&) {  // the search reports a failed forward solve itself
  }
  restoreParameterValues(before, model);
  problem.setInitial(initialBefore);
  if (!usage.empty()) {
    std::printf("%s", formatPointUsage(usage).c_str());
    requireUsablePoints(*inputs.pointLoss, usage);
  }
}

}  // namespace softfit::apps
