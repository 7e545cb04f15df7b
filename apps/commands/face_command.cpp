#include "apps/commands/face_command.h"
#include "apps/commands/option_checks.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>

#include "face/activation_all_at_once.h"
#include "face/activation_fit.h"
#include "face/face_animation.h"
#include "face/face_io.h"
#include "face/geometry_fit.h"
#include "face/synthetic_face.h"
#include "forward/errors.h"
#include "forward/io/output_folder.h"
#include "forward/io/pvd_writer.h"
#include "forward/io/run_marker.h"

namespace softfit::apps {

namespace {

namespace fs = std::filesystem;
using namespace softfit::face;

struct FaceOptions {
  // generate
  int cellsAround = 10, cellsUp = 8, cellsThrough = 2, targetCount = 6;
  unsigned seed = 1;
  double shift = 0.015;
  // fit / solve / animate
  std::string model, targets, output = "results/face", geometry, expressions, from, to;
  int rounds = 3, iterations = 60, geometryIterations = 25, frames = 30;
  double wa = Regularization{}.activation, wv = Regularization{}.volume, ws = Regularization{}.geometry;
  double fat = 1.0;
  bool noJaw = false, perTet = false;
};

// The files a fit, solve or animation reads: its output folder must hold none of them.
std::vector<std::string> inputFiles(const FaceOptions& o) {
  return {o.model, o.targets, o.geometry, o.expressions};
}

MuscleGeometry startGeometry(const FaceOptions& o, const FaceModel& model) {
  return o.geometry.empty() ? model.geometry : readGeometryCsv(o.geometry, model);
}

ActivationFitOptions activationOptions(const FaceOptions& o) {
  ActivationFitOptions a;
  a.kind = o.perTet ? ActivationModel::PerTet : ActivationModel::Muscles;
  a.regularization = Regularization{o.wa, o.wv, o.ws};
  a.fitJaw = !o.noJaw;
  a.maxIterations = o.iterations;
  return a;
}

void writeResults(const FaceOptions& o, const FaceModel& model, const MuscleGeometry& geometry,
                  const std::vector<FaceTarget>& targets, const std::vector<Expression>& expressions,
                  const std::vector<VecX>& positions, const std::vector<int>& iterations) {
  fs::create_directories(fs::path(o.output) / "meshes");
  std::vector<NamedExpression> named;
  std::ofstream errors((fs::path(o.output) / "errors.csv").string());
  errors << "target,mean_error,max_error,mean_error_percent_of_size,inverted_tets\n";
  for (std::size_t t = 0; t < targets.size(); ++t) {
    const VecX e = correspondenceErrors(targets[t], positions[t]);
    NamedExpression n{targets[t].name, expressions[t], e.mean(), e.maxCoeff(), iterations[t]};
    if (o.perTet) n.expression.activations.clear();  // per-tet activations go to the VTU only
    named.push_back(n);
    writeFaceVtu((fs::path(o.output) / "meshes" / (targets[t].name + ".vtu")).string(), model, geometry, positions[t],
                 &targets[t]);
    errors << targets[t].name << ',' << e.mean() << ',' << e.maxCoeff() << ',' << 100 * e.mean() / model.size << ','
           << invertedTetCount(model, positions[t]) << '\n';
    std::printf("  %-24s mean error %.4g (%.3g%% of size), max %.4g, %d iterations\n", targets[t].name.c_str(),
                e.mean(), 100 * e.mean() / model.size, e.maxCoeff(), iterations[t]);
  }
  writeExpressionsJson((fs::path(o.output) / "activations.json").string(), model.muscleNames, named);
  writeGeometryCsv((fs::path(o.output) / "geometry.csv").string(), geometry, model.muscleNames);
  markRunComplete(o.output, "softfit face: " + std::to_string(targets.size()) + " targets");
}

// The synthetic face is a test model: its size is bounded (100000 cells ran for minutes
// before running out of memory).
constexpr long long kMaxSyntheticFaceCells = 20000;

void runGenerate(const FaceOptions& o) {
  checkOutputFolder(o.output, {}, "-o");
  beginRun(o.output, {"model.json"});  // an earlier run's marker and files
  const long long cells = static_cast<long long>(o.cellsAround) * o.cellsUp * o.cellsThrough;
  if (cells > kMaxSyntheticFaceCells)
    throw InputError("--cells-around x --cells-up x --cells-through: " + std::to_string(o.cellsAround) + " x " +
                     std::to_string(o.cellsUp) + " x " + std::to_string(o.cellsThrough) + " = " +
                     std::to_string(cells) + " cells, at most " + std::to_string(kMaxSyntheticFaceCells));
  SyntheticFaceOptions s;
  s.cellsAround = o.cellsAround;
  s.cellsUp = o.cellsUp;
  s.cellsThrough = o.cellsThrough;
  s.targetCount = o.targetCount;
  s.seed = o.seed;
  s.muscleShift = o.shift;
  const SyntheticFace face = makeSyntheticFace(s);
  writeSyntheticFace(o.output, face);
  markRunComplete(o.output, "softfit face generate: " + std::to_string(face.targets.size()) + " targets");
  std::printf("softfit face generate: %d nodes, %d tets, %d muscles, %d targets -> %s\n"
              "  model: %s/model.json, targets: %s/targets, truth: %s/truth\n",
              face.model.nodeCount(), face.model.tetCount(), face.model.muscleCount(),
              static_cast<int>(face.targets.size()), o.output.c_str(), o.output.c_str(), o.output.c_str(),
              o.output.c_str());
}

void runSolve(const FaceOptions& o) {
  checkOutputFolder(o.output, inputFiles(o), "-o");
  beginRun(o.output, {"errors.csv", "activations.json", "geometry.csv"});
  const FaceModel model = loadFaceModel(o.model);
  const MuscleGeometry geometry = startGeometry(o, model);
  const std::vector<FaceTarget> targets = loadFaceTargets(o.targets, model);
  FaceSolver solver(model);
  const ActivationFitOptions options = activationOptions(o);
  std::vector<Expression> expressions;
  std::vector<VecX> positions;
  std::vector<int> iterations;
  std::printf("softfit face solve: %d tets, %d muscles, %d targets (%s activations)\n", model.tetCount(),
              model.muscleCount(), static_cast<int>(targets.size()), o.perTet ? "per-tet" : "muscle");
  StartLinearization start;  // every target starts from rest: its linearization is shared
  for (const FaceTarget& t : targets) {
    const ActivationFitResult r =
        fitActivations(solver, geometry, t, restExpression(model, options.kind), options, nullptr, &start);
    expressions.push_back(r.expression);
    positions.push_back(r.positions);
    iterations.push_back(r.iterations);
    std::printf("  %-24s %d iterations, %d evaluations, %.2f s%s\n", t.name.c_str(), r.iterations, r.evaluations,
                r.seconds, r.converged ? "" : (" (" + r.stopReason + ")").c_str());
  }
  writeResults(o, model, geometry, targets, expressions, positions, iterations);
}

void runFit(const FaceOptions& o) {
  checkOutputFolder(o.output, inputFiles(o), "-o");
  beginRun(o.output, {"errors.csv", "activations.json", "geometry.csv", "history.csv"});
  const FaceModel model = loadFaceModel(o.model);
  const MuscleGeometry initial = startGeometry(o, model);
  const std::vector<FaceTarget> targets = loadFaceTargets(o.targets, model);
  GeometryFitOptions options;
  options.activation = activationOptions(o);
  options.activation.kind = ActivationModel::Muscles;
  options.rounds = o.rounds;
  options.geometryIterations = o.geometryIterations;
  std::printf("softfit face fit: %d tets, %d muscles, %d S entries, %d targets\n", model.tetCount(),
              model.muscleCount(), initial.entryCount(), static_cast<int>(targets.size()));
  fs::create_directories(o.output);
  std::ofstream history((fs::path(o.output) / "history.csv").string());
  history << "round,mean_error,geometry_objective,s_iterations,inverted_tets,seconds\n";
  const GeometryFitResult fit = fitGeometry(model, initial, targets, options, [&](const GeometryFitRound& r) {
    std::printf("  round %d: mean error %.4g (%.3g%% of size), %d S iterations, %d inverted tets, %.1f s\n",
                r.round, r.meanError, 100 * r.meanError / model.size, r.geometryIterations, r.invertedTets,
                r.seconds);
    history << r.round << ',' << r.meanError << ',' << r.geometryObjective << ',' << r.geometryIterations << ','
            << r.invertedTets << ',' << r.seconds << '\n';
    history.flush();
  });
  writeResults(o, model, fit.geometry, targets, fit.expressions, fit.positions,
               std::vector<int>(targets.size(), options.rounds));
}

void runAnimate(const FaceOptions& o) {
  checkOutputFolder(o.output, inputFiles(o), "-o");
  beginRun(o.output, {"animation.pvd"});
  FaceModel model = loadFaceModel(o.model);
  const MuscleGeometry geometry = startGeometry(o, model);
  const auto expressions = readExpressionsJson(o.expressions, model.muscleCount());
  auto find = [&](const std::string& name) -> Expression {
    if (name == "rest") return restExpression(model, ActivationModel::Muscles);
    for (const auto& e : expressions)
      if (e.name == name) return e.expression;
    throw InputError(o.expressions + ": no expression named \"" + name + "\"");
  };
  const Expression a = find(o.from), b = find(o.to);
  if (o.fat != 1.0) model.plasticScale = fatPlasticScale(geometry, o.fat);
  fs::create_directories(fs::path(o.output) / "frames");
  PvdWriter pvd((fs::path(o.output) / "animation.pvd").string());
  animateExpressions(model, geometry, a, b, o.frames, [&](int k, double t, const VecX& x) {
    char name[64];
    std::snprintf(name, sizeof(name), "frame_%06d.vtu", k);
    const std::string path = (fs::path(o.output) / "frames" / name).string();
    writeFaceVtu(path, model, geometry, x, nullptr);
    pvd.addTimestep(t, path);
  });
  pvd.finalize();
  markRunComplete(o.output, "softfit face animate: " + std::to_string(o.frames) + " frames");
  std::printf("softfit face animate: %d frames %s -> %s%s -> %s\n", o.frames, o.from.c_str(), o.to.c_str(),
              o.fat != 1.0 ? (" (fat factor " + std::to_string(o.fat) + ")").c_str() : "", pvd.path().c_str());
}

}  // namespace

void addFaceCommand(CLI::App& app, int& exitCode) {
  auto options = std::make_shared<FaceOptions>();
  CLI::App* face = app.add_subcommand("face", "Muscle-based face model: generate data, fit S and activations, animate");
  face->require_subcommand(1);

  CLI::App* generate = face->add_subcommand("generate", "Write a synthetic face model and targets");
  generate->add_option("-o,--output", options->output, "Output folder")->required();
  generate->add_option("--cells-around", options->cellsAround, "Cells across the face (theta)")->check(integerBetween(1, kMaxSyntheticFaceCells));
  generate->add_option("--cells-up", options->cellsUp, "Cells from chin to forehead (phi)")->check(integerBetween(1, kMaxSyntheticFaceCells));
  generate->add_option("--cells-through", options->cellsThrough, "Cells through the tissue")->check(integerBetween(1, kMaxSyntheticFaceCells));
  generate->add_option("--targets", options->targetCount, "Number of target expressions")->check(integerBetween(1, 1000));
  generate->add_option("--seed", options->seed, "Expression seed");
  generate->add_option("--shift", options->shift, "Displacement of the model's muscles from the truth (m)")
      ->check(numberBetween(-1.0, 1.0));
  generate->callback([options] { runGenerate(*options); });

  auto common = [&](CLI::App* c) {
    c->add_option("model", options->model, "model.json")->required();
    c->add_option("-o,--output", options->output, "Output folder");
    c->add_option("--geometry", options->geometry, "Start S from this CSV instead of the muscle containment");
    c->add_option("--iterations", options->iterations, "L-BFGS-B iterations per activation solve")->check(integerAtLeast(1));
    c->add_option("--w-a", options->wa, "Activation regularization weight")->check(numberAtLeast(0));
    c->add_option("--w-v", options->wv, "Volume (det) regularization weight")->check(numberAtLeast(0));
  };
  CLI::App* fit = face->add_subcommand("fit", "Fit S, activations and jaws to several target scans");
  common(fit);
  fit->add_option("--targets", options->targets, "Folder with targets.json")->required();
  fit->add_option("--rounds", options->rounds, "Alternation rounds (A-solves, then an S-solve)")->check(integerAtLeast(1));
  fit->add_option("--geometry-iterations", options->geometryIterations, "Projected-gradient iterations per S-solve")->check(integerAtLeast(1));
  fit->add_option("--w-s", options->ws, "S regularization weight ||S - S0||^2")->check(numberAtLeast(0));
  fit->add_flag("--no-jaw", options->noJaw, "Keep the jaw at rest");
  fit->callback([options] { runFit(*options); });

  CLI::App* solve = face->add_subcommand("solve", "Activation-only solve (S fixed) for new scans");
  common(solve);
  solve->add_option("--targets", options->targets, "Folder with targets.json")->required();
  solve->add_flag("--no-jaw", options->noJaw, "Keep the jaw at rest");
  solve->add_flag("--per-tet", options->perTet, "Per-tet activations (Phace-style baseline)");
  solve->callback([options] { runSolve(*options); });

  CLI::App* animate = face->add_subcommand("animate", "Interpolate two expressions into an animation (PVD)");
  common(animate);
  animate->add_option("--expressions", options->expressions, "activations.json of a fit or solve")->required();
  animate->add_option("--from", options->from, "Start expression name (or rest)")->required();
  animate->add_option("--to", options->to, "End expression name (or rest)")->required();
  animate->add_option("--frames", options->frames, "Number of frames")->check(integerAtLeast(2));
  animate->add_option("--fat", options->fat, "Fat/thin factor f of the passive tissue (plasticity)")->check(numberAbove(0));
  animate->callback([options] { runAnimate(*options); });
  (void)exitCode;
}

}  // namespace softfit::apps
