// Solver comparison on real unstructured meshes (issue 7a). Not a Google Benchmark
// timing loop: it runs fixed experiments and prints markdown tables (see bench/README.md,
// "Solvers (issue 7a)").
//   1. abs vs clamp eigenvalue filtering (Chen et al. 2024), and the adaptive
//      trust-region switch between them (Chen et al. SIGGRAPH Asia 2024): stable
//      neo-Hookean, E = 1e8, nu = 0.495, meshes stretched to 3x (and compressed to 0.5x)
//      in one large backward-Euler step; projected-Newton iterations to the scaled
//      decrement 1e-5. Three setups: uniformly scaled start ("filter"), Chen's start, the
//      mesh at rest with one end moved ("filter-pulled"), and Chen et al.'s whole run as
//      in their code ("filter-paper": their held bands, lambda and stop).
//   2. L-BFGS with the Laplacian initial matrix, 10 iterations per frame, vs Newton with
//      one refactorized iteration per frame (Liu 2017) on a neo-Hookean twisting bar;
//      per-frame time and relative error (G(x_k) - G(x*)) / (G(x_1) - G(x*)).
// Usage: solver_comparison_bench [filter|filter-pulled|filter-paper|twist|twist-small|all]
//        [data folder]
// (default: all; the meshes from the data folder, else $SOFTFIT_DATA, else
// ../shared/data/tet relative to the working directory, the development checkout's data);
// $SOFTFIT_BENCH_MESH=<name> runs the filter tables on that one mesh;
// $SOFTFIT_BENCH_JITTER=<a> moves every free dof of the filter runs' start by a uniform
// random offset in [-a/2, a/2] x the mesh length ($SOFTFIT_BENCH_SEED, default 1): is an
// iteration count a round-off accident?
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iterator>
#include <random>
#include <string>

#include "forward/errors.h"
#include "forward/mesh/read_tet_mesh.h"
#include "apps/commands/solver_comparison.h"
#include "forward/nonlinear/step_solver.h"

using namespace softfit;

namespace {

std::string dataFolder(int argc, char** argv) {
  if (argc > 2) return argv[2];
  if (const char* env = std::getenv("SOFTFIT_DATA")) return env;
  return "../shared/data/tet";
}

struct MeshModel {
  TetMesh mesh;
  std::unique_ptr<PhysicalModel> model;
  std::vector<int> low, high;  // nodes in the held bands at the ends of the longest axis
  int axis = 0;
  double length = 0.0;
};

// heldBand: the width of the band of nodes held at each end of the longest axis, as a
// fraction of the length.
MeshModel loadModel(TetMesh mesh, MaterialModel material, const LameParameters& lame, double density,
                    double heldBand) {
  MeshModel m;
  m.mesh = std::move(mesh);
  const int tets = m.mesh.tetCount();
  m.model = std::make_unique<PhysicalModel>(m.mesh.restPositions(), buildTetElements(m.mesh), material,
                                            std::vector<LameParameters>(tets, lame), VecX::Constant(tets, density));
  const Eigen::Vector3d lo = m.mesh.vertices.colwise().minCoeff(), hi = m.mesh.vertices.colwise().maxCoeff();
  (hi - lo).maxCoeff(&m.axis);
  m.length = hi[m.axis] - lo[m.axis];
  for (int i = 0; i < m.mesh.vertexCount(); ++i) {
    const double c = m.mesh.vertices(i, m.axis);
    if (c <= lo[m.axis] + heldBand * m.length) m.low.push_back(i);
    if (c >= hi[m.axis] - heldBand * m.length) m.high.push_back(i);
  }
  return m;
}

// How the stretch test starts (both hold the end nodes at their start positions).
enum class StretchStart {
  // The bar uniformly scaled by `stretch` along its long axis about its centre (no
  // lateral contraction, so J = stretch): the interior starts near its relaxed state.
  UniformScale,
  // Chen et al. 2024's protocol (their setup_initial_deformation, "stretch_longest_axis"
  // / "compress_longest_axis"): the mesh at rest except the nodes at the high end, which
  // jump by (stretch - 1) x length along the axis. The element layer next to those nodes
  // takes the whole deformation, so Newton starts far from the solution.
  EndPulled,
};

State stretchedStart(MeshModel& m, double stretch, StretchStart start) {
  State s;
  s.x = m.model->restPositions();
  if (start == StretchStart::UniformScale) {
    const double centre = 0.5 * (m.mesh.vertices.col(m.axis).minCoeff() + m.mesh.vertices.col(m.axis).maxCoeff());
    for (int i = 0; i < m.mesh.vertexCount(); ++i)
      s.x[3 * i + m.axis] = centre + stretch * (s.x[3 * i + m.axis] - centre);
  } else {
    for (int i : m.high) s.x[3 * i + m.axis] += (stretch - 1.0) * m.length;
  }
  s.v = VecX::Zero(s.x.size());
  DirichletGroup a, b;
  a.nodes = m.low;
  b.nodes = m.high;
  m.model->dirichlet = DirichletBoundary({a, b}, s.x);  // fixed at the start positions
  return s;
}

// The setups of the abs vs clamp experiment.
enum class FilterProtocol {
  // Uniformly scaled start; held bands 2% of the length; decrement stop 1e-5 in our
  // scaling (decrementScale: per unit volume and stiffness 2 mu + lambda).
  UniformScale,
  // Chen's start (EndPulled), otherwise as UniformScale.
  EndPulled,
  // Chen et al.'s own run (their main.cpp and setup_initial_deformation) as closely as our
  // model allows:
  // - their start (EndPulled);
  // - held bands 0.1 of the mesh radius (they normalize the mesh by its largest node
  //   distance from the node mean and hold the nodes within 0.1 of the ends);
  // - their lambda in the energy, mu/2 (I_C - 3) + lambda/2 (J - 1 - mu/lambda)^2 with the
  //   Lame lambda, where ours has lambda + mu;
  // - quasi-static: rho = 1e-3 makes the inertia term less than 1e-6 of the elastic
  //   stiffness on these meshes;
  // - their stop, -1/2 d.g < 1e-5 lambda on the normalized mesh with element weights
  //   0.5 det = 3x the volume, converted to our scaling per mesh.
  Paper,
};

struct FilterSetup {
  StretchStart start = StretchStart::UniformScale;
  double heldBand = 0.02;  // fraction of the length
  LameParameters lame;
  double density = 1000;
  double tolerance = 1e-5;  // decrement stop in our scaling
};

FilterSetup filterSetup(FilterProtocol protocol, const TetMesh& mesh) {
  FilterSetup setup;
  setup.lame = lameFromYoungPoisson(1e8, 0.495);
  if (protocol == FilterProtocol::UniformScale) return setup;
  setup.start = StretchStart::EndPulled;
  if (protocol == FilterProtocol::EndPulled) return setup;
  const Eigen::RowVector3d mean = mesh.vertices.colwise().mean();
  const double radius = (mesh.vertices.rowwise() - mean).rowwise().norm().maxCoeff();
  const Eigen::Vector3d extent = mesh.vertices.colwise().maxCoeff() - mesh.vertices.colwise().minCoeff();
  double volume = 0.0;
  for (int t = 0; t < mesh.tetCount(); ++t) volume += std::abs(signedTetVolume(mesh, t));
  const double lambda = setup.lame.lambda, mu = setup.lame.mu;
  setup.heldBand = 0.1 * radius / extent.maxCoeff();
  setup.lame.lambda = lambda - mu;  // so that our lambda + mu is their lambda
  setup.density = 1e-3;
  // Their stop: 3 D / radius^3 < 1e-5 lambda, D our decrement. Ours: D < tol V (2 mu + lambda - mu).
  setup.tolerance = 1e-5 * lambda * radius * radius * radius / (3.0 * volume * (mu + lambda));
  return setup;
}

// $SOFTFIT_BENCH_JITTER (see the top of this file); no change when it is unset.
void jitterStart(StepProblem& problem, double length) {
  const char* amplitude = std::getenv("SOFTFIT_BENCH_JITTER");
  if (!amplitude) return;
  const char* seed = std::getenv("SOFTFIT_BENCH_SEED");
  std::mt19937 random(seed ? static_cast<unsigned>(std::strtoul(seed, nullptr, 10)) : 1u);
  const double scale = std::strtod(amplitude, nullptr) * length;
  std::uniform_real_distribution<double> offset(-0.5 * scale, 0.5 * scale);
  for (int i = 0; i < problem.initialGuess.size(); ++i)
    if (!problem.fixed[i]) problem.initialGuess[i] += offset(random);
}

State restState(const PhysicalModel& model) {
  State s;
  s.x = model.restPositions();
  s.v = VecX::Zero(s.x.size());
  return s;
}

StepSolverSettings newton(EigenvalueFilter filter, ElementEigensystem eig, int maxIterations, double tolerance) {
  StepSolverSettings s;
  s.type = StepSolverType::Newton;
  s.projection.filter = filter;
  s.projection.eigensystem = eig;
  s.maxIterations = maxIterations;
  s.decrementTolerance = tolerance;
  return s;
}

void filterExperiment(const std::string& data, FilterProtocol protocol) {
  const char* setups[] = {
      "start uniformly scaled along the long axis, held bands 2% of the length, rho = 1000, stop at decrement 1e-5",
      "start at rest with the high end moved (Chen's start), held bands 2% of the length, rho = 1000, stop at "
      "decrement 1e-5",
      "Chen et al.'s run: their start, held bands 0.1 of the radius, their lambda, rho = 1e-3 (quasi-static), their "
      "stop (in our scaling: column 'stop')"};
  std::printf("\n### abs vs clamp vs adaptive (stable neo-Hookean, E = 1e8, nu = 0.495, ends held, one BE step "
              "dt = 0.1; %s)\n\n",
              setups[static_cast<int>(protocol)]);
  std::printf("| mesh | tets | stop | deformation | eigensystem | clamp iters | abs iters | clamp/abs |"
              " adaptive iters | clamp ms | abs ms | adaptive ms | rel. dist. clamp | rel. dist. abs |"
              " rel. dist. adaptive | G at the stop: clamp / abs / adaptive |\n"
              "|---|---:|---:|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
  const double dt = 0.1;
  // The first four meshes since stop 10; liu_hippo, spot and gecko (larger, unstructured)
  // added to see whether the ratio holds beyond them; since stop 17 beam_5k (beam's shape
  // with 8x the tets: does the ratio grow with the resolution?) and armadillo and bunny
  // (the largest, organic shapes like the paper's).
  std::vector<std::string> names = {"liu_bar4099", "beam",      "beam_5k", "liu_longbar", "coarse_bunny",
                                    "liu_hippo",   "spot",      "gecko",   "armadillo",   "bunny"};
  if (const char* only = std::getenv("SOFTFIT_BENCH_MESH")) names = {only};  // one mesh, for quick runs
  for (const std::string& name : names) {
    for (double stretch : {3.0, 0.5}) {
      TetMesh mesh = readTetMesh(data + "/" + name + ".mesh");
      const FilterSetup setup = filterSetup(protocol, mesh);
      const double tolerance = setup.tolerance;
      MeshModel m = loadModel(std::move(mesh), MaterialModel::StableNeoHookean, setup.lame, setup.density,
                              setup.heldBand);
      const State s = stretchedStart(m, stretch, setup.start);
      StepProblem problem = makeStepProblem(*m.model, IntegratorType::BackwardEuler, s, nullptr, dt);
      jitterStart(problem, m.length);
      StepObjective refObjective(*m.model, problem);
      ReferenceSolution ref;
      bool haveReference = true;
      try {
        ref = solveReference(refObjective);
      } catch (const SolveError& e) {  // keep going: iteration counts do not need x*
        std::fprintf(stderr, "%s %gx: %s\n", name.c_str(), stretch, e.what());
        haveReference = false;
        ref.x = problem.initialGuess;
        ref.initialValue = refObjective.value(ref.x);
        ref.value = ref.initialValue;
      }
      const auto distance = [&](const SolverCaseResult& c) {
        char text[32];
        if (haveReference) std::snprintf(text, sizeof text, "%.1e", c.relativeDistance);
        else std::snprintf(text, sizeof text, "(no x*)");
        return std::string(text);
      };
      for (ElementEigensystem eig : {ElementEigensystem::Numeric, ElementEigensystem::AnalyticStableNeoHookean}) {
        const std::vector<SolverCase> cases = {{"clamp", newton(EigenvalueFilter::Clamp, eig, 500, tolerance)},
                                               {"abs", newton(EigenvalueFilter::Abs, eig, 500, tolerance)},
                                               {"adaptive", newton(EigenvalueFilter::Adaptive, eig, 500, tolerance)}};
        const auto r = compareSolvers(*m.model, problem, cases, ref);
        const auto iters = [](const SolverCaseResult& c) {
          return c.failure.empty() ? std::to_string(c.solve.iterations) + (c.solve.converged ? "" : " (not conv.)")
                                   : std::string("failed");
        };
        std::printf("| %s | %d | %.2g | %s %gx | %s | %s | %s | %.2f | %s | %.0f | %.0f | %.0f | %s | %s | %s |"
                    " %.5g / %.5g / %.5g |\n",
                    name.c_str(), m.mesh.tetCount(), tolerance, stretch > 1 ? "stretch" : "compress", stretch,
                    elementEigensystemName(eig).c_str(), iters(r[0]).c_str(), iters(r[1]).c_str(),
                    double(r[0].solve.iterations) / std::max(1, r[1].solve.iterations), iters(r[2]).c_str(),
                    1e3 * r[0].solve.seconds, 1e3 * r[1].solve.seconds, 1e3 * r[2].solve.seconds,
                    distance(r[0]).c_str(), distance(r[1]).c_str(), distance(r[2]).c_str(), r[0].solve.value,
                    r[1].solve.value, r[2].solve.value);
        std::fflush(stdout);
      }
    }
  }
}

// Liu's twisting bar: both ends rotate in opposite directions about the long axis.
void twistExperiment(const std::string& data, const std::string& meshName, int frames) {
  const double dt = 1.0 / 30.0;
  MeshModel m = loadModel(readTetMesh(data + "/" + meshName + ".mesh"), MaterialModel::NeoHookean,
                          lameFromYoungPoisson(1e6, 0.45), 1000, 0.02);
  DirichletGroup a, b;
  a.nodes = m.low;
  b.nodes = m.high;
  a.motion = b.motion = DirichletGroup::Motion::Rotation;
  a.axis = b.axis = Vec3::Unit(m.axis);
  a.center = b.center = Vec3(m.mesh.vertices.colwise().mean());
  a.angularVelocity = -M_PI;  // half a turn per second per end
  b.angularVelocity = M_PI;
  m.model->dirichlet = DirichletBoundary({a, b}, m.model->restPositions());

  StepSolverSettings newton1 = newton(EigenvalueFilter::Clamp, ElementEigensystem::Numeric, 1, 0.0);
  StepSolverSettings lbfgs;
  lbfgs.type = StepSolverType::Lbfgs;
  lbfgs.maxIterations = 10;
  lbfgs.decrementTolerance = 0.0;
  auto newtonSolver = makeStepSolver(newton1);
  auto lbfgsSolver = makeStepSolver(lbfgs);

  std::printf("\n### Twisting bar %s (%d tets, %d nodes), neo-Hookean E = 1e6, nu = 0.45, rho = 1000, dt = 1/30, "
              "ends at +-pi rad/s, %d frames\n\n",
              meshName.c_str(), m.mesh.tetCount(), m.mesh.vertexCount(), frames);
  // Pass 1: the tight reference trajectory (every frame starts from its reference state,
  // so both solvers face identical problems). Passes 2 and 3 then time each solver on its
  // own, as a simulation using only that solver would run: no other solver's work (e.g.
  // OpenBLAS threads still spinning after a supernodal factorization) in between.
  std::vector<State> starts;
  std::vector<ReferenceSolution> refs;
  State state = restState(*m.model);
  for (int f = 0; f < frames; ++f) {
    const StepProblem problem = makeStepProblem(*m.model, IntegratorType::BackwardEuler, state, nullptr, dt);
    StepObjective objective(*m.model, problem);
    starts.push_back(state);
    refs.push_back(solveReference(objective));
    State next;
    next.time = problem.time;
    next.x = refs.back().x;
    next.v = (next.x - state.x) / dt;
    m.model->dirichlet.applyVelocities(next.time, next.v);
    state = next;
  }
  const auto timeSolver = [&](StepSolver& solver, std::vector<double>& ms, std::vector<double>& errors) {
    for (int f = 0; f < frames; ++f) {
      const StepProblem problem = makeStepProblem(*m.model, IntegratorType::BackwardEuler, starts[f], nullptr, dt);
      StepObjective objective(*m.model, problem);
      VecX x = problem.initialGuess;
      const StepSolveResult r = solver.solve(objective, x);
      ms.push_back(1e3 * r.seconds);
      errors.push_back(relativeEnergyError(r.value, refs[f]));
    }
  };
  std::vector<double> newtonMs, newtonErrors, lbfgsMs, lbfgsErrors;
  timeSolver(*newtonSolver, newtonMs, newtonErrors);
  timeSolver(*lbfgsSolver, lbfgsMs, lbfgsErrors);

  std::printf("| frame | newton-1 ms | newton-1 error | lbfgs-10 ms | lbfgs-10 error | reference iters |\n"
              "|---:|---:|---:|---:|---:|---:|\n");
  double tNewton = 0, tLbfgs = 0, eNewton = 0, eLbfgs = 0, tRef = 0;
  int counted = 0, refIterations = 0;
  for (int f = 0; f < frames; ++f) {
    std::printf("| %d | %.1f | %.2e | %.1f | %.2e | %d |\n", f + 1, newtonMs[f], newtonErrors[f], lbfgsMs[f],
                lbfgsErrors[f], refs[f].iterations);
    if (f > 0) {  // frame 1 holds the symbolic analysis / the one-time L-BFGS factorization
      tNewton += newtonMs[f];
      tLbfgs += lbfgsMs[f];
      eNewton += newtonErrors[f];
      eLbfgs += lbfgsErrors[f];
      tRef += 1e3 * refs[f].seconds;
      refIterations += refs[f].iterations;
      ++counted;
    }
  }
  std::printf("\nMean over frames 2..%d: newton-1 %.1f ms/frame (error %.2e), lbfgs-10 %.1f ms/frame (error %.2e), "
              "speed-up %.2fx; tight Newton reference %.0f ms/frame (%.1f iterations).\n",
              frames, tNewton / counted, eNewton / counted, tLbfgs / counted, eLbfgs / counted, tNewton / tLbfgs,
              tRef / counted, double(refIterations) / counted);
}

}  // namespace

int main(int argc, char** argv) {
  const std::string which = argc > 1 ? argv[1] : "all";
  const std::string data = dataFolder(argc, argv);
  const std::string modes[] = {"filter", "filter-pulled", "filter-paper", "twist", "twist-small", "all"};
  if (std::find(std::begin(modes), std::end(modes), which) == std::end(modes)) {
    std::string list;
    for (const std::string& mode : modes) list += (list.empty() ? "" : "|") + mode;
    std::fprintf(stderr, "usage: solver_comparison_bench [%s] [data folder]\n(unknown mode '%s')\n", list.c_str(),
                 which.c_str());
    return 2;
  }
  try {
    if (which == "filter" || which == "all") filterExperiment(data, FilterProtocol::UniformScale);
    if (which == "filter-pulled" || which == "all") filterExperiment(data, FilterProtocol::EndPulled);
    if (which == "filter-paper" || which == "all") filterExperiment(data, FilterProtocol::Paper);
    if (which == "twist" || which == "all") twistExperiment(data, "liu_bar16660", 12);
    if (which == "twist-small") twistExperiment(data, "liu_bar4099", 12);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
  return 0;
}
