#include "apps/commands/fit_command.h"
#include "apps/commands/fit_bootstrap.h"
#include "apps/commands/fit_inputs.h"
#include "apps/commands/multi_start_run.h"
#include "apps/commands/option_checks.h"
#include "apps/commands/rank_timeout_option.h"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>

#include "adjoint/scene_gradient_check.h"
#include "forward/errors.h"
#include "forward/io/output_folder.h"
#include "forward/integrators/simulator.h"
#include "forward/io/run_marker.h"
#include "forward/mesh/input_file.h"
#include "observations/capture.h"
#include "optim/fit_problem.h"
#include "optim/report/convergence_plot.h"
#include "optim/report/fit_report.h"
#include "optim/fit_warnings.h"
#include "optim/report/ground_truth.h"
#include "scene/simulation_writer.h"

namespace softfit::apps {

namespace {

namespace fs = std::filesystem;

struct FitOptions {
  FitInputOptions inputs;  // scene, --observations, --device, the loss, checkpointing
  std::string output = "results/fit";
  std::string parameters = "E,nu,alpha1,alpha2";
  std::string start;  // "E=2500,nu=0.35"
  std::string optimizer = "auto";
  std::string precondition = "none";
  int maxIterations = 100;
  double gradientTolerance = 1e-10;
  double relativeCostTolerance = 1e-12;
  double stepTolerance = 1e-7;
  int multiStart = 1;
  int bootstrapReplicates = 4;
  int bootstrapRefits = 1;
  double rankTimeout = 0.0;
  bool quiet = false;
};

OptimizerOptions optimizerOptions(const FitOptions& options, OptimizerKind kind) {
  OptimizerOptions optimizer;
  optimizer.kind = kind;
  optimizer.maxIterations = options.maxIterations;
  optimizer.gradientTolerance = options.gradientTolerance;
  optimizer.relativeCostTolerance = options.relativeCostTolerance;
  optimizer.stepTolerance = options.stepTolerance;
  optimizer.hessianPreconditioner = options.precondition != "none";
  return optimizer;
}

MultiStartOptions multiStartOptions(const FitOptions& options) {
  MultiStartOptions multi;
  multi.starts = options.multiStart;
  return multi;
}

// A line per iteration run here ("refit start 2 iteration 3 cost ...").
std::function<void(int start, const IterationRecord&)> iterationPrinter(const FitOptions& options,
                                                                         const FitProblem& problem,
                                                                         const std::vector<std::string>& names,
                                                                         const std::string& label) {
  return [&options, &problem, &names, label](int start, const IterationRecord& r) {
    if (options.quiet) return;
    const std::string startLabel = options.multiStart > 1 ? "start " + std::to_string(start) + " " : "";
    std::printf("  %s%siteration %3d  cost %.6e  |grad| %.3e  %s  (%d evaluations, %.1f s)\n", label.c_str(),
                startLabel.c_str(), r.iteration, r.cost, r.gradientNorm,
                formatPoint(names, problem.toPhysical(r.point)).c_str(), r.evaluations, r.seconds);
    std::fflush(stdout);
  };
}

// Minimizes the fit problem from the physical start p0 and the perturbed starts, spread
// over the distribution's processes, printing a line per iteration run here.
MultiStartRun optimize(FitProblem& problem, const VecX& p0, const FitOptions& options, OptimizerKind kind,
                       const std::vector<std::string>& names, const char* label, WorkDistribution& distribution) {
  OptimizerOptions optimizer = optimizerOptions(options, kind);
  if (options.precondition == "gauss-newton") useGaussNewtonSteps(optimizer, problem, "--precondition gauss-newton");
  MultiStartRun run = runMultiStart(problem, problem.toInternal(p0), optimizer, multiStartOptions(options), distribution,
                                    iterationPrinter(options, problem, names, label));
  if (options.multiStart > 1) {
    std::printf("%s", formatMultiStart(run, problem, names).c_str());
    std::fflush(stdout);
  }
  return run;
}

int runFit(const FitOptions& options, WorkDistribution& distribution) {
  const auto start = std::chrono::steady_clock::now();
  distribution.setWaitLimit(options.rankTimeout);
  const bool root = distribution.isRoot();  // rank 0 writes the outputs
  checkOutputFolder(options.output, {options.inputs.scene, options.inputs.observations}, "-o");
  if (root) beginRun(options.output, {"history.csv", "result.json", "convergence.png", "starts.csv"});
  requireFolder(options.inputs.observations, "--observations folder");
  const std::vector<Parameter> parameters = parseParameterList(options.parameters, "--params");  // checked before any work
  const auto startValues = parseStart(options.start);
  const OptionalGroundTruth truth = readOptionalGroundTruth((fs::path(options.inputs.observations) / "truth.json").string());
  if (root && !truth.warning.empty()) std::fprintf(stderr, "warning: %s\n", truth.warning.c_str());
  FitInputs inputs;
  loadFitInputs(options.inputs, inputs);
  const SceneDescription& description = inputs.description;
  BuiltScene& scene = inputs.scene;
  PhysicalModel& model = *scene.model;
  const FitObservations& observations = inputs.observations;
  const int steps = observations.steps;
  const int bootstrapSteps = options.inputs.loss.bootstrapSteps;
  if (distribution.size() > 1) std::printf("  %s\n", distribution.description().c_str());
  CaptureBootstrapOptions bootstrap;
  if (bootstrapSteps != 0) {
    if (!observations.capture) throw InputError("--bootstrap-steps needs point-cloud observations (capture.json)");
    bootstrap = makeCaptureBootstrapOptions(bootstrapSteps, options.bootstrapReplicates, options.bootstrapRefits,
                                            options.multiStart, options.inputs.loss.noiseSigma,
                                            captureCamerasPath(options.inputs.observations, options.inputs.loss),
                                            *observations.capture, observations.lossOptions.stride);
  }

  // Parameters, start values, transforms.
  ParameterSpace space(parameters, scene.motion, scene.elementRegion);
  VecX p0 = space.values(model);
  const std::vector<std::string> names = space.names();
  const TransformSet transforms = defaultTransforms(space.parameters());
  applyStartValues(startValues, space, transforms, "--params " + options.parameters, p0, "--start");
  FitProblem problem(inputsFitSetup(inputs, options.inputs), space, transforms);
  checkPointUsage(inputs, problem, p0);  // refuse data that cannot constrain the fit

  // auto: the gradient-only line search for a loss whose value jumps (the grid SDF cost).
  const OptimizerKind optimizerKind = fitOptimizerKind(options.optimizer, *observations.loss, "--optimizer");
  std::printf("  %d steps of %s / %s, optimizer %s, parameters %s\n  start: %s\n", steps,
              integratorTypeName(description.integrator.type).c_str(),
              materialModelName(model.elastic().model()).c_str(), optimizerKindName(optimizerKind).c_str(),
              options.parameters.c_str(),
              formatPoint(names, p0).c_str());
  const MultiStartRun run = optimize(problem, p0, options, optimizerKind, names, "", distribution);
  const OptimizationResult& result = run.bestResult();
  FitSummary summary;
  VecX q = result.point;
  bool solveFailed = result.solveFailed;
  if (bootstrapSteps > 0 && !solveFailed) {
    // Each refit fits a synthetic capture as the real one was fitted (same starts), with
    // the same cost, from the parameters the problem holds at that bootstrap step.
    BootstrapRefitter refitter;
    refitter.starts = multiStartPoints(problem.toInternal(p0), multiStartOptions(options));
    const OptimizerOptions optimizer = optimizerOptions(options, optimizerKind);
    refitter.fitStart = [&](const Capture& synthetic, int refit, int start) {
      std::unique_ptr<CaptureLoss> syntheticLoss = observations.pointLossOf(synthetic);
      FitProblem refitProblem = problem.withLoss(*syntheticLoss);
      const std::string label = bootstrap.refits > 1 ? "refit " + std::to_string(refit) + " " : "refit ";
      const auto print = iterationPrinter(options, problem, names, label);
      return minimize(refitProblem.objective(), refitter.starts[start], optimizer,
                      [&](const IterationRecord& r) { print(start, r); });
    };
    refitter.report = [&](int refit, const MultiStartRun& refitRun) {
      if (bootstrap.refits > 1)
        std::printf("  refit %d: re-estimate %s\n", refit,
                    formatPoint(names, problem.toPhysical(refitRun.bestResult().point)).c_str());
      if (options.multiStart > 1) std::printf("%s", formatMultiStart(refitRun, problem, names).c_str());
      std::fflush(stdout);
    };
    q = bootstrapCaptureFit(scene, problem, result.point, bootstrap, refitter, distribution, summary.bootstrap,
                            solveFailed);
  }
  const VecX p = problem.toPhysical(q);
  if (!root) return solveFailed ? 3 : 0;  // rank 0 writes the outputs

  // Reports: written under temporary names, renamed; run_complete.txt only after a run
  // whose solves all succeeded (beginRun at the start removed an earlier run's).
  fs::create_directories(options.output);
  summary.names = names;
  summary.start = p0;
  summary.result = p;
  summary.truth = truth.values;
  summary.optimization = result;
  if (!options.quiet && problem.hasResiduals()) {
    std::printf("  standard errors: %d forward runs for J at the end point\n", static_cast<int>(q.size()) + 1);
    std::fflush(stdout);
  }
  summary.uncertainty =
      fitUncertainty(problem, q, observationNoiseSigma(options.inputs.loss.noiseSigma, options.inputs.observations));
  summary.warnings = fitWarnings(names, p, transforms, observations, options.inputs.observations, result.cost,
                                 options.inputs.loss.noiseSigma, model, summary.uncertainty);
  summary.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  writeAtomically((fs::path(options.output) / "history.csv").string(),
                  [&](const std::string& path) { writeFitHistoryCsv(path, names, transforms, result.history); });
  writeAtomically((fs::path(options.output) / "result.json").string(),
                  [&](const std::string& path) { writeFitResultJson(path, summary); });
  writeAtomically((fs::path(options.output) / "convergence.png").string(),
                  [&](const std::string& path) { writeConvergencePlot(path, result.history); });
  if (run.results.size() > 1)
    writeAtomically((fs::path(options.output) / "starts.csv").string(),
                    [&](const std::string& path) { writeMultiStartCsv(path, run, problem, names); });

  // The reconstructed trajectory, for ParaView next to the observations.
  SimulationWriter writer((fs::path(options.output) / "reconstruction").string(), scene, description.output);
  problem.runAt(p, [&](const TrajectorySetup& trajectory) {
    writer.writeFrame(0, trajectory.initial, steps == 0);
    const Trajectory run = simulate(trajectory, false, [&](const StepReport& r) {
      writer.writeFrame(r.step, *r.state, r.step == r.totalSteps);
    });
    writer.finish(run.states.back());
  });

  const std::string forwardRuns =
      result.residualEvaluations ? ", " + std::to_string(result.residualEvaluations) + " forward runs for J" : "";
  const std::string warned = summary.warnings.empty() ? ""
                             : ", with " + std::to_string(summary.warnings.size()) + " warning" +
                                   (summary.warnings.size() > 1 ? "s" : "") + " (below)";
  std::printf("  %s after %d iterations (%d evaluations%s), cost %.6e, %.1f s%s\n", result.stopReason.c_str(),
              result.iterations, result.evaluations, forwardRuns.c_str(), result.cost, summary.seconds, warned.c_str());
  std::printf("%s", formatFitSummary(summary).c_str());
  std::fflush(stdout);
  for (const std::string& w : summary.warnings) std::fprintf(stderr, "warning: %s\n", w.c_str());
  if (!solveFailed) markRunComplete(options.output, "softfit fit: " + result.stopReason);
  std::printf("  wrote %s/{history.csv, result.json, convergence.png%s, reconstruction/simulation.pvd%s}\n",
              options.output.c_str(), run.results.size() > 1 ? ", starts.csv" : "",
              solveFailed ? "" : ", run_complete.txt");
  return solveFailed ? 3 : 0;
}

}  // namespace

void addFitCommand(CLI::App& app, int& exitCode, WorkDistribution& distribution) {
  auto options = std::make_shared<FitOptions>();
  CLI::App* cmd = app.add_subcommand("fit", "Reconstruct physical parameters from a capture");
  addFitInputOptions(cmd, options->inputs);
  cmd->add_option("-o,--output", options->output, "Output folder")->capture_default_str();
  cmd->add_option("--params", options->parameters, "Parameters to fit (see `softfit gradcheck --help`)")
      ->capture_default_str();
  cmd->add_option("--start", options->start, "Start values, e.g. E=2500,nu=0.35 (default: the scene's)");
  cmd->add_option("--optimizer", options->optimizer,
                  "auto (gradient-only-lbfgs for the grid SDF point cost, else lbfgs), lbfgs, lbfgsb, bb, ceres or "
                  "gradient-only-lbfgs (line search on directional derivatives only, for costs with jumps)")
      ->capture_default_str();
  cmd->add_option("--precondition", options->precondition,
                  "none; hessian: run the optimizer in the coordinates of a finite-difference Hessian at the "
                  "start (one more evaluation per parameter; for correlated, badly scaled parameters such as E, nu "
                  "and the damping coefficients; not with lbfgsb); gauss-newton (displacement observations): J^T J "
                  "of the residuals re-taken every iteration, so each step is a Gauss-Newton step (one more "
                  "forward run per parameter and iteration, plus one)")
      ->check(CLI::IsMember({"none", "hessian", "gauss-newton"}))
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
  cmd->add_option("--multi-start", options->multiStart,
                  "Number of starts (the given one and perturbed ones; under mpirun spread over the ranks)")
      ->check(integerBetween(1, 10000))
      ->capture_default_str();
  cmd->add_option("--bootstrap-steps", options->inputs.loss.bootstrapSteps,
                  "Parametric-bootstrap bias correction steps for noisy point clouds (needs --noise-sigma and the "
                  "capture's cameras; each step is one more fit)")
      ->check(integerAtLeast(0))
      ->capture_default_str();
  cmd->add_option("--bootstrap-replicates", options->bootstrapReplicates,
                  "Noise draws per rendered point in each bootstrap capture (averages the re-estimate's noise)")
      ->check(integerBetween(1, 1000))
      ->capture_default_str();
  cmd->add_option("--bootstrap-refits", options->bootstrapRefits,
                  "Synthetic captures (own noise seeds) fitted per bootstrap step, their re-estimates averaged; "
                  "under mpirun the refits (x --multi-start starts) are spread over the ranks")
      ->check(integerBetween(1, 10000))
      ->capture_default_str();
  addRankTimeoutOption(cmd, options->rankTimeout);
  cmd->add_flag("-q,--quiet", options->quiet, "No per-iteration lines");
  cmd->callback([options, &exitCode, &distribution] { exitCode = runFit(*options, distribution); });
}

}  // namespace softfit::apps
