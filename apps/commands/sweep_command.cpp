#include "apps/commands/sweep_command.h"
#include "apps/commands/fit_inputs.h"
#include "apps/commands/option_checks.h"
#include "apps/commands/rank_timeout_option.h"
#include "apps/commands/sweep_grid.h"
#include "apps/distribute/result_bytes.h"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>

#include "adjoint/parameter_descriptor.h"
#include "forward/errors.h"
#include "forward/io/output_folder.h"
#include "forward/io/run_marker.h"
#include "forward/mesh/input_file.h"
#include "forward/value_limits.h"
#include "optim/report/fit_report.h"
#include "optim/report/ground_truth.h"
#include "optim/report/landscape_plot.h"

namespace softfit::apps {

namespace {

namespace fs = std::filesystem;

struct SweepOptions {
  FitInputOptions inputs;  // scene, --observations, --device, the loss, checkpointing
  std::string output = "results/sweep";
  std::string grid;
  int lhs = 0;  // 0 = a full grid
  long long seed = 1;
  bool gradient = false;
  std::vector<std::string> paths;  // fits' history.csv files drawn on sweep.png
  double rankTimeout = 0.0;
  bool quiet = false;
};

struct PointResult {
  bool ok = false;
  double cost = 0.0;
  VecX gradient;        // physical, with --gradient
  std::string failure;  // the failed solve's message
  double seconds = 0.0;
};

std::string encode(const PointResult& r) {
  ByteWriter w;
  w.add(r.ok).add(r.cost).add(r.gradient).add(r.failure).add(r.seconds);
  return w.bytes();
}

PointResult decode(const std::string& bytes) {
  ByteReader in(bytes);
  PointResult r;
  r.ok = in.boolean();
  r.cost = in.real();
  r.gradient = in.vector();
  r.failure = in.text();
  r.seconds = in.real();
  return r;
}

std::string number(double v) {
  char buffer[40];
  std::snprintf(buffer, sizeof(buffer), "%.17g", v);
  return buffer;
}

void writeSweepCsv(const std::string& path, const std::vector<std::string>& names, const std::vector<VecX>& points,
                   const std::vector<PointResult>& results, bool gradient) {
  std::ofstream out(path);
  if (!out) throw InputError(path + ": cannot write");
  out << "index";
  for (const std::string& n : names) out << "," << n;
  out << ",cost";
  if (gradient)
    for (const std::string& n : names) out << ",dcost_d" << n;
  out << ",status\n";
  for (size_t i = 0; i < points.size(); ++i) {
    out << i;
    for (int k = 0; k < points[i].size(); ++k) out << "," << number(points[i][k]);
    const PointResult& r = results[i];
    out << "," << (r.ok ? number(r.cost) : "");
    if (gradient)
      for (size_t k = 0; k < names.size(); ++k) out << "," << (r.ok ? number(r.gradient[k]) : "");
    std::string failure = r.failure;
    for (char& c : failure)
      if (c == '"' || c == '\n') c = '\'';
    out << "," << (r.ok ? "ok" : "\"failed: " + failure + "\"") << "\n";
  }
  if (!out) throw InputError(path + ": write failed");
}

int runSweep(const SweepOptions& options, WorkDistribution& distribution) {
  const auto start = std::chrono::steady_clock::now();
  distribution.setWaitLimit(options.rankTimeout);
  const bool root = distribution.isRoot();
  std::vector<std::string> inputFiles = options.paths;
  inputFiles.insert(inputFiles.end(), {options.inputs.scene, options.inputs.observations});
  checkOutputFolder(options.output, inputFiles, "-o");
  // Checked before any work: the grid's syntax, its names, the observations folder.
  const bool latin = options.lhs > 0;
  const std::vector<SweepAxis> axes = parseSweepGrid(options.grid, latin);
  std::string parameterList;
  for (const SweepAxis& a : axes) parameterList += (parameterList.empty() ? "" : ",") + a.name;
  const std::vector<Parameter> parameters = parseParameterList(parameterList, "--grid");
  if (parameters.size() != axes.size())
    throw InputError("--grid: " + parameterList + " names a parameter group; give its components (e.g. gravity_y)");
  if (root) beginRun(options.output, {"sweep.csv", "sweep.png"});
  requireFolder(options.inputs.observations, "--observations folder");
  const OptionalGroundTruth truth = readOptionalGroundTruth((fs::path(options.inputs.observations) / "truth.json").string());
  if (root && !truth.warning.empty()) std::fprintf(stderr, "warning: %s\n", truth.warning.c_str());

  FitInputs inputs;
  loadFitInputs(options.inputs, inputs);

  ParameterSpace space(parameters, inputs.scene.motion, inputs.scene.elementRegion);
  const std::vector<std::string> names = space.names();
  // Each axis' ends within its parameter's range and its transform's domain (both are intervals).
  const TransformSet ranges = defaultTransforms(space.parameters());
  for (size_t k = 0; k < axes.size(); ++k) {
    for (double v : {axes[k].low, axes[k].high}) {
      checkParameterValue(*space.parameters()[k].descriptor, v, "--grid " + names[k]);
      try {
        ranges.transforms[k].toInternal(v);
      } catch (const InputError& e) {
        throw InputError("--grid " + names[k] + ": " + e.what());
      }
    }
  }
  // Optimizer paths for the plot, read before any work: a bad file is bad input.
  std::vector<LandscapePath> paths;
  if (options.paths.size() > 4) throw InputError("--path: at most 4 paths, got " + std::to_string(options.paths.size()));
  for (const std::string& file : options.paths) {
    const FitHistoryTrack track = readFitHistoryCsv(file, names);
    const fs::path folder = fs::path(file).parent_path();
    paths.push_back({folder.empty() ? file : folder.filename().string(), track.points, track.costs});
  }
  // The sweep reports d cost / d parameter: identity transforms (internal = physical).
  TransformSet identity;
  identity.transforms.resize(axes.size());
  FitProblem problem(inputsFitSetup(inputs, options.inputs), space, identity);

  const std::vector<VecX> points = latin ? latinHypercubePoints(axes, options.lhs, static_cast<std::uint64_t>(options.seed))
                                         : gridPoints(axes);
  const int count = static_cast<int>(points.size());
  std::printf("  %d %s points over %s, %s%s\n", count, latin ? "Latin-hypercube" : "grid", parameterList.c_str(),
              options.gradient ? "cost and gradient" : "cost",
              distribution.size() > 1 ? (", " + distribution.description()).c_str() : "");
  std::fflush(stdout);
  // Every point starts from a copy of the problem as it is now (its parameter values, which
  // the last bits of an evaluation depend on: optim/fit_problem.h), so a point's result is
  // the same bits in whichever process, and after whichever points, it runs.
  const FitProblem initial(problem);
  const std::vector<TaskResult> tasks = distribution.runAll(count, [&](int i) {
    const auto t0 = std::chrono::steady_clock::now();
    problem = initial;
    PointResult r;
    try {
      if (options.gradient) {
        r.cost = problem.evaluate(points[i], r.gradient);
      } else {
        r.cost = problem.cost(points[i]);
      }
      r.ok = true;
    } catch (const SolveError& e) {  // a point of the landscape that cannot be simulated: data, not an error
      r.failure = e.what();
    }
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (!options.quiet) {
      std::printf("  point %d/%d  %s  %s  (%.2f s)\n", i + 1, count, formatPoint(names, points[i]).c_str(),
                  r.ok ? ("cost " + number(r.cost)).c_str() : ("failed: " + r.failure).c_str(), r.seconds);
      std::fflush(stdout);
    }
    return encode(r);
  });
  for (const TaskResult& t : tasks) t.rethrow();  // the first error, the same on every rank
  std::vector<PointResult> results;
  for (const TaskResult& t : tasks) results.push_back(decode(t.bytes));
  if (!root) return 0;  // rank 0 writes the outputs

  int failed = 0, best = -1;
  for (int i = 0; i < count; ++i) {
    if (!results[i].ok) {
      ++failed;
      continue;
    }
    if (best < 0 || results[i].cost < results[best].cost) best = i;
  }
  fs::create_directories(options.output);
  const fs::path out(options.output);
  writeAtomically((out / "sweep.csv").string(), [&](const std::string& path) {
    writeSweepCsv(path, names, points, results, options.gradient);
  });
  std::string plotNote;
  if (axes.size() <= 2) {
    LandscapeData data;
    data.names = names;
    data.points = points;
    for (const PointResult& r : results) {
      data.costs.push_back(r.cost);
      data.ok.push_back(r.ok);
    }
    for (const SweepAxis& a : axes) {
      if (!latin) data.gridCounts.push_back(a.count);
      data.low.push_back(a.low);
      data.high.push_back(a.high);
    }
    data.truth = truth.values;
    data.paths = paths;
    writeAtomically((out / "sweep.png").string(), [&](const std::string& path) { writeLandscapePlot(path, data); });
    plotNote = ", sweep.png";
  } else {
    std::printf("  no sweep.png: the plot shows 1 or 2 parameters, the sweep has %zu\n", axes.size());
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (best >= 0)
    std::printf("  lowest cost %s at %s (point %d)\n", number(results[best].cost).c_str(),
                formatPoint(names, points[best]).c_str(), best);
  if (failed) std::printf("  %d of %d points failed (forward solve); see the status column\n", failed, count);
  std::printf("  %d points in %.1f s\n", count, seconds);
  if (!failed) markRunComplete(options.output, "softfit sweep: " + std::to_string(count) + " points");
  std::printf("  wrote %s/{sweep.csv%s%s}\n", options.output.c_str(), plotNote.c_str(),
              failed ? "" : ", run_complete.txt");
  return failed ? 3 : 0;
}

}  // namespace

void addSweepCommand(CLI::App& app, int& exitCode, WorkDistribution& distribution) {
  auto options = std::make_shared<SweepOptions>();
  CLI::App* cmd = app.add_subcommand("sweep", "Evaluate the fit cost (and gradient) over a parameter grid");
  options->inputs.command = "sweep";
  addFitInputOptions(cmd, options->inputs);
  cmd->add_option("--grid", options->grid,
                  "Parameters and ranges: E=1e3:1e4:16,nu=0.2:0.45:16 (name=low:high:count, ends included); with "
                  "--lhs only name=low:high")
      ->required();
  cmd->add_option("--lhs", options->lhs, "Latin hypercube of N points in the --grid ranges instead of a grid")
      ->check(integerBetween(1, 1000000));
  cmd->add_option("--seed", options->seed, "Seed of the Latin hypercube")
      ->check(integerAtLeast(0))
      ->capture_default_str();
  cmd->add_flag("--gradient", options->gradient, "Also the gradient d cost / d parameter (adjoint) at every point");
  cmd->add_option("--path", options->paths,
                  "A fit's history.csv (softfit fit -o DIR: DIR/history.csv) to draw on sweep.png; repeat for up to 4")
      ->take_all();
  cmd->add_option("-o,--output", options->output, "Output folder")->capture_default_str();
  addRankTimeoutOption(cmd, options->rankTimeout);
  cmd->add_flag("-q,--quiet", options->quiet, "No per-point lines");
  cmd->callback([options, &exitCode, &distribution] { exitCode = runSweep(*options, distribution); });
}

}  // namespace softfit::apps
