#include "apps/commands/fit_command.h"
#include "apps/commands/device_option.h"
#include "apps/commands/fit_bootstrap.h"
#include "apps/commands/option_checks.h"
#include "apps/commands/output_folder.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>
#include <sstream>

#include "adjoint/scene_gradient_check.h"
#include "forward/errors.h"
#include "forward/io/run_marker.h"
#include "forward/value_limits.h"
#include "forward/mesh/input_file.h"
#include "forward/mesh/text_tokenizer.h"
#include "observations/capture.h"
#include "scene/scene_loader.h"
#include "scene/simulation_writer.h"
#include "observations/capture_io.h"
#include "observations/capture_point_loss.h"
#include "observations/displacement_loss.h"
#include "observations/point_usage.h"
#include "optim/report/convergence_plot.h"
#include "optim/fit_problem.h"
#include "optim/report/fit_report.h"
#include "optim/report/ground_truth.h"

namespace softfit::apps {

namespace {

namespace fs = std::filesystem;

struct FitOptions {
  std::string device = "cpu";
  std::string scene;
  std::string observations;
  std::string output = "results/fit";
  std::string parameters = "E,nu,alpha1,alpha2";
  std::string start;  // "E=2500,nu=0.35"
  std::string loss = "auto";
  std::string optimizer = "auto";
  int maxIterations = 100;
  double gradientTolerance = 1e-10;
  double relativeCostTolerance = 1e-12;
  double stepTolerance = 1e-7;
  int multiStart = 1;
  double huber = 0.0;
  double noiseSigma = 0.0;
  std::string pointCost = "auto";
  int bootstrapSteps = 0;
  int bootstrapReplicates = 4;
  std::string cameras;  // for the bootstrap; default DIR/cameras.json
  std::string checkpointing = "all";
  int maxStates = 20;
  bool quiet = false;
};

// "E=2500,nu=0.35" -> values by parameter name.
std::map<std::string, double> parseStart(const std::string& text) {
  std::map<std::string, double> values;
  std::stringstream stream(text);
  std::string item;
  while (std::getline(stream, item, ',')) {
    if (item.empty()) continue;
    const auto eq = item.find('=');
    if (eq == std::string::npos) throw InputError("--start: \"" + item + "\" is not name=value");
    const std::string name = item.substr(0, eq);
    double value = 0.0;
    if (!parseReal(item.substr(eq + 1), value) || !std::isfinite(value))
      throw InputError("--start: \"" + item + "\": the value of " + name + " is not a finite number");
    if (!values.emplace(name, value).second) throw InputError("--start: " + name + " is given twice");
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

// Minimizes the fit problem from the physical start p0, printing a line per iteration.
OptimizationResult optimize(FitProblem& problem, const VecX& p0, const FitOptions& options, OptimizerKind kind,
                            const std::vector<std::string>& names, const char* label) {
  OptimizerOptions optimizer;
  optimizer.kind = kind;
  optimizer.maxIterations = options.maxIterations;
  optimizer.gradientTolerance = options.gradientTolerance;
  optimizer.relativeCostTolerance = options.relativeCostTolerance;
  optimizer.stepTolerance = options.stepTolerance;
  MultiStartOptions multi;
  multi.starts = options.multiStart;
  return minimizeMultiStart(problem.objective(), problem.toInternal(p0), optimizer, multi, [&](const IterationRecord& r) {
    if (options.quiet) return;
    std::printf("  %siteration %3d  cost %.6e  |grad| %.3e  %s  (%d evaluations, %.1f s)\n", label, r.iteration, r.cost,
                r.gradientNorm, formatPoint(names, problem.toPhysical(r.point)).c_str(), r.evaluations, r.seconds);
    std::fflush(stdout);
  });
}

int runFit(const FitOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  requireOutputFolder(options.output);
  beginRun(options.output, {"history.csv", "result.json", "convergence.png"});  // an earlier run's
  requireFolder(options.observations, "--observations folder");
  const std::vector<Parameter> parameters = parseParameterList(options.parameters);  // checked before any work
  const auto startValues = parseStart(options.start);
  SceneDescription description = loadScene(options.scene);
  applyDevice(options.device, description.integrator);
  BuiltScene scene = buildScene(description);
  PhysicalModel& model = *scene.model;

  // Observations: point clouds (capture.json) or node displacements (displacements.json).
  const fs::path dir(options.observations);
  std::string lossKind = options.loss;
  if (lossKind == "auto") lossKind = fs::exists(dir / "capture.json") ? "points" : "displacements";
  std::unique_ptr<TrajectoryLoss> loss;
  CaptureLoss* pointLoss = nullptr;  // the point-cloud loss, when the observations are points
  int steps = 0;
  std::optional<Capture> capture;
  PointCloudLossOptions lossOptions;
  std::string cost = options.pointCost;
  if (lossKind == "points") {
    capture = loadCapture(dir.string());
    lossOptions.stride = frameStride(*capture, description.dt);
    lossOptions.huberDelta = options.huber;
    lossOptions.averageOverPoints = true;
    // The noise correction exists for the closest-point cost only; with the sdf cost the
    // noise sigma serves the bootstrap alone (grid + noise: sdf with the bootstrap,
    // bench/README.md "Fits with noisy point clouds").
    cost = resolvePointCost(cost, scene.isGrid(), options.noiseSigma, options.bootstrapSteps);
    lossOptions.noiseSigma = cost == "sdf" ? 0.0 : options.noiseSigma;
    std::unique_ptr<CaptureLoss> points = makeCapturePointLoss(scene, *capture, lossOptions, cost);
    steps = points->lastStep();
    pointLoss = points.get();
    std::printf("softfit fit: %s, %d point-cloud frames (%d points) from %s, %s point cost\n", options.scene.c_str(),
                capture->frameCount(), capture->totalPoints(), options.observations.c_str(),
                cost == "sdf" ? "grid SDF" : "closest-point");
    loss = std::move(points);
  } else if (lossKind == "displacements") {
    DisplacementObservations observations = readDisplacementObservations((dir / "displacements.json").string());
    int stride = 1;
    if (observations.dt > 0.0) stride = observationStride(observations.dt, description.dt, observations.source);
    const int frames = static_cast<int>(observations.frames.size());
    auto displacements = std::make_unique<DisplacementLoss>(std::move(observations), model.nodeCount(), stride);
    steps = displacements->lastStep();
    std::printf("softfit fit: %s, %d displacement frames from %s\n", options.scene.c_str(), frames,
                options.observations.c_str());
    loss = std::move(displacements);
  } else {
    throw InputError("--loss = \"" + lossKind + "\": unknown (valid: auto, points, displacements)");
  }
  CaptureBootstrapOptions bootstrap;
  if (options.bootstrapSteps != 0) {
    if (!capture) throw InputError("--bootstrap-steps needs point-cloud observations (capture.json)");
    bootstrap = makeCaptureBootstrapOptions(options.bootstrapSteps, options.bootstrapReplicates, options.noiseSigma,
                                            options.cameras.empty() ? (dir / "cameras.json").string() : options.cameras,
                                            *capture, lossOptions.stride);
  }

  // Parameters, start values, transforms.
  ParameterSpace space(parameters, scene.motion, scene.elementRegion);
  VecX p0 = space.values(model);
  const std::vector<std::string> names = space.names();
  const TransformSet transforms = defaultTransforms(space.parameters());
  for (const auto& [name, value] : startValues) {
    const auto it = std::find(names.begin(), names.end(), name);
    if (it == names.end()) throw InputError("--start: \"" + name + "\" is not among --params " + options.parameters);
    try {  // the parameter's own range, named
      transforms.transforms[it - names.begin()].toInternal(value);
      const double limit = space.parameters()[it - names.begin()].descriptor->magnitudeLimit;
      if (limit > 0.0) requireMagnitude(value, limit, "value");
    } catch (const InputError& e) {
      throw InputError("--start " + name + ": " + e.what());
    }
    p0[it - names.begin()] = value;
  }
  FitSetup setup;
  setup.trajectory = trajectorySetup(description, scene);
  setup.trajectory.steps = steps;  // up to the last observed frame
  setup.loss = loss.get();
  setup.checkpoints.strategy = parseCheckpointStrategy(options.checkpointing, "--checkpointing");
  setup.checkpoints.maxStates = options.maxStates;
  FitProblem problem(setup, space, transforms);
  if (pointLoss) {  // the points used and dropped at the start: refuse data that cannot constrain the fit
    // The run leaves the model as it found it, so the fit's bits do not depend on it.
    const ParameterValues before = readParameterValues(model, scene.motion);
    const State initialBefore = problem.initial();
    problem.apply(p0);
    std::vector<FramePointUsage> usage;
    try {
      usage = pointUsage(*pointLoss, simulate(problem.setup().trajectory, true).states);
    } catch (const SolveError&) {  // the search below reports a failed forward solve itself
    }
    restoreParameterValues(before, model);
    problem.setInitial(initialBefore);
    if (!usage.empty()) {
      std::printf("%s", formatPointUsage(usage).c_str());
      requireUsablePoints(*pointLoss, usage);
    }
  }

  // auto: the gradient-only line search for a loss whose value jumps (the grid SDF cost).
  const OptimizerKind optimizerKind =
      options.optimizer == "auto" ? defaultOptimizer(*loss) : parseOptimizerKind(options.optimizer);
  std::printf("  %d steps of %s / %s, optimizer %s, parameters %s\n  start: %s\n", steps,
              integratorTypeName(description.integrator.type).c_str(),
              materialModelName(model.elastic().model()).c_str(), optimizerKindName(optimizerKind).c_str(),
              options.parameters.c_str(),
              formatPoint(names, p0).c_str());
  const OptimizationResult result = optimize(problem, p0, options, optimizerKind, names, "");
  FitSummary summary;
  VecX q = result.point;
  const bool solveFailed = result.stopReason.find("forward solve failed") != std::string::npos;
  if (options.bootstrapSteps > 0 && !solveFailed) {
    const auto fitCapture = [&](const Capture& synthetic) {
      std::unique_ptr<CaptureLoss> syntheticLoss = makeCapturePointLoss(scene, synthetic, lossOptions, cost);
      FitSetup refitSetup = setup;
      refitSetup.loss = syntheticLoss.get();
      FitProblem refit(refitSetup, space, transforms);
      return VecX(optimize(refit, p0, options, optimizerKind, names, "refit ").point);
    };
    q = bootstrapCaptureFit(scene, problem, result.point, bootstrap, fitCapture, summary.bootstrap);
  }
  const VecX p = problem.toPhysical(q);

  // Reports: written under temporary names, renamed; run_complete.txt only after a run
  // whose solves all succeeded (beginRun at the start removed an earlier run's).
  fs::create_directories(options.output);
  summary.names = names;
  summary.start = p0;
  summary.result = p;
  summary.truth = readGroundTruth((dir / "truth.json").string());
  summary.optimization = result;
  summary.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  writeAtomically((fs::path(options.output) / "history.csv").string(),
                  [&](const std::string& path) { writeFitHistoryCsv(path, names, transforms, result.history); });
  writeAtomically((fs::path(options.output) / "result.json").string(),
                  [&](const std::string& path) { writeFitResultJson(path, summary); });
  writeAtomically((fs::path(options.output) / "convergence.png").string(),
                  [&](const std::string& path) { writeConvergencePlot(path, result.history); });

  // The reconstructed trajectory, for ParaView next to the observations.
  problem.apply(p);
  SimulationWriter writer((fs::path(options.output) / "reconstruction").string(), scene, description.output);
  writer.writeFrame(0, problem.initial(), steps == 0);
  const Trajectory trajectory = simulate(problem.setup().trajectory, false, [&](const StepReport& r) {
    writer.writeFrame(r.step, *r.state, r.step == r.totalSteps);
  });
  writer.finish(trajectory.states.back());

  std::printf("  %s after %d iterations (%d evaluations), cost %.6e, %.1f s\n", result.stopReason.c_str(),
              result.iterations, result.evaluations, result.cost, summary.seconds);
  std::printf("%s", formatFitSummary(summary).c_str());
  if (!solveFailed) markRunComplete(options.output, "softfit fit: " + result.stopReason);
  std::printf("  wrote %s/{history.csv, result.json, convergence.png, reconstruction/simulation.pvd%s}\n",
              options.output.c_str(), solveFailed ? "" : ", run_complete.txt");
  return solveFailed ? 3 : 0;
}

}  // namespace

void addFitCommand(CLI::App& app, int& exitCode) {
  auto options = std::make_shared<FitOptions>();
  CLI::App* cmd = app.add_subcommand("fit", "Reconstruct physical parameters from a capture");
  cmd->add_option("scene", options->scene, "Scene JSON (geometry, boundary conditions, initial guess)")
      ->required();
  cmd->add_option("--observations", options->observations, "Capture folder (capture.json or displacements.json)")
      ->required();
  cmd->add_option("-o,--output", options->output, "Output folder")->capture_default_str();
  addDeviceOption(cmd, options->device);
  cmd->add_option("--params", options->parameters, "Parameters to fit (see `softfit gradcheck --help`)")
      ->capture_default_str();
  cmd->add_option("--start", options->start, "Start values, e.g. E=2500,nu=0.35 (default: the scene's)");
  cmd->add_option("--loss", options->loss, "auto, points or displacements")->capture_default_str();
  cmd->add_option("--optimizer", options->optimizer,
                  "auto (gradient-only-lbfgs for the grid SDF point cost, else lbfgs), lbfgs, lbfgsb, bb, ceres or "
                  "gradient-only-lbfgs (line search on directional derivatives only, for costs with jumps)")
      ->capture_default_str();
  cmd->add_option("--max-iterations", options->maxIterations, "Iteration limit")->check(integerAtLeast(1))->capture_default_str();
  cmd->add_option("--gradient-tolerance", options->gradientTolerance, "Stop when |grad| falls below")
      ->check(numberAtLeast(0))
      ->capture_default_str();
  cmd->add_option("--cost-tolerance", options->relativeCostTolerance, "Stop when the relative cost change falls below")
      ->check(numberAtLeast(0))
      ->capture_default_str();
  cmd->add_option("--step-tolerance", options->stepTolerance,
                  "gradient-only-lbfgs: stop when a step (internal coordinates, max norm) falls below")
      ->check(numberAtLeast(0))
      ->capture_default_str();
  cmd->add_option("--multi-start", options->multiStart, "Number of starts (perturbed)")
      ->check(integerAtLeast(1))
      ->capture_default_str();
  cmd->add_option("--huber", options->huber, "Huber delta on point distances (0 = squared)")
      ->check(numberAtLeast(0))
      ->capture_default_str();
  cmd->add_option("--noise-sigma", options->noiseSigma,
                  "Known Gaussian noise (m, per coordinate) on the points: corrects the closest-point cost's noise "
                  "bias and sets the noise of the bootstrap's synthetic captures (0 = none)")
      ->capture_default_str();  // checked by the loss ("noise sigma must be >= 0", exit 2)
  cmd->add_option("--point-cost", options->pointCost,
                  "point-cloud cost: auto (sdf for grid scenes without --noise-sigma or with --bootstrap-steps, else closest), closest (point to deformed surface) "
                  "or sdf (thesis grid cost: reference SDF at the located points)")
      ->capture_default_str();
  cmd->add_option("--bootstrap-steps", options->bootstrapSteps,
                  "Parametric-bootstrap bias correction steps for noisy point clouds (needs --noise-sigma and the "
                  "capture's cameras; each step is one more fit)")
      ->check(integerAtLeast(0))
      ->capture_default_str();
  cmd->add_option("--bootstrap-replicates", options->bootstrapReplicates,
                  "Noise draws per rendered point in each bootstrap capture (averages the re-estimate's noise)")
      ->check(integerAtLeast(1))
      ->capture_default_str();
  cmd->add_option("--cameras", options->cameras, "Camera JSON of the capture, for the bootstrap (default: DIR/cameras.json)");
  cmd->add_option("--checkpointing", options->checkpointing, "all, periodic or binomial")->capture_default_str();
  cmd->add_option("--max-states", options->maxStates, "Binomial checkpointing budget")
      ->check(integerAtLeast(1))
      ->capture_default_str();
  cmd->add_flag("-q,--quiet", options->quiet, "No per-iteration lines");
  cmd->callback([options, &exitCode] { exitCode = runFit(*options); });
}

}  // namespace softfit::apps
