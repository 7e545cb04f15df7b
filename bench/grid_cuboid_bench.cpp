// The thesis cuboid on the cut-cell grid: active node / cell counts for resolutions
// r = 5..20 and the per-step time of 30 steps at r = 5, 10, 15, 20, next to the thesis'
// GPU times (GTX 1060, CG; Table B.5 for the Dirichlet case, B.6 for the collision case).
//
// Scene (docs/theory.rst, section 4): box SDF centred (0, 1, 0) with half-extents
// (1.29, 0.4, 0.8), h = 1/r, refinement 3, compressed cut-cell quadrature. Material
// warped corotated (MaterialModel::WarpedCorotated), E = 5e4, nu = 0.3, density 100,
// Rayleigh alpha1 = 0.1, alpha2 = 0.001; IntegratorType::NewmarkTheta, theta 0.6,
// dt = 0.01, gravity (0, -10, 0), 30 steps.
//   dirichlet  nodes with y < 0.65 fixed (the bottom face y = 0.6 lies on grid nodes
//              for every r used here), the body sags under gravity.
//   collision  no Dirichlet nodes; ground y = 0 (k = 1e4, alpha = 100) with contact at
//              the edge crossings; dropped with initial velocity (0, -3, 0), it reaches
//              the ground after ~17 steps and bounces (min_gap: closest approach).
//
// Each benchmark row builds the scene (setup_ms counter), then times every one of the 30
// step() calls (manual time): the reported time is the mean per step over all 30 steps,
// the first one (symbolic analysis and first factorization) included;
// first_step_ms and later_step_ms split it; cpu_ms is the process CPU time (all threads)
// per step, the measure to quote when the machine is shared. thesis_ms is the thesis'
// per-step grid time of the same case (GridMatrixAssembly + GridCollisionForces +
// GridCGTime): Table B.5 for dirichlet, Table B.6 for collision; ratio = ours / thesis.
// Collision rows also count the PCG iterations of the steps that start in contact (a
// contact point closer to the ground than 1 / alpha) and of the others.
//
// Own flags: --solver_threads=N, --pcg_tolerance=T (IntegratorSettings::pcgTolerance,
// default 1e-12; the thesis' CG stops at 1e-6), --trace (one line per step on stderr),
// --stale_contact_levels (multigrid coarse levels keep the contact springs of their
// last rebuild, as before 2026-11-26).
#include <benchmark/benchmark.h>

#include <chrono>
#include <ctime>
#include <algorithm>
#include <cstdio>
#include <map>
#include <optional>
#include <string>

#include "forward/integrators/newmark_theta_integrator.h"
#include "forward/integrators/simulator.h"
#include "grid/cut_cell_grid.h"
#include "grid/grid_contact_points.h"
#include "grid/sdf_primitives.h"

namespace {

using namespace softfit;
using Clock = std::chrono::steady_clock;

constexpr int kSteps = 30;
int gSolverThreads = 0;  // --solver_threads=N (IntegratorSettings::solverThreads)
double gPcgTolerance = IntegratorSettings{}.pcgTolerance;  // --pcg_tolerance=T
bool gTrace = false;     // --trace: one line per step on stderr
bool gContactLevels = true;  // --stale_contact_levels: IntegratorSettings::multigridContactLevels off
// Thesis grid seconds per step, assembly + collision forces + CG (GTX 1060).
// Table B.5 (Dirichlet), e.g. r = 5: 0.000123 + 0.000057 + 0.009479.
const std::map<int, double> kThesisDirichletSecondsPerStep = {{5, 0.009659}, {10, 0.029876}, {15, 0.106638}, {20, 0.292009}};
// Table B.6 (ground collision), e.g. r = 5: 0.000110 + 0.000093 + 0.008629.
const std::map<int, double> kThesisCollisionSecondsPerStep = {{5, 0.008832}, {10, 0.021862}, {15, 0.073848}, {20, 0.146589}};

double processCpuSeconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

BoxSdf thesisCuboid() { return BoxSdf(Vec3(0, 1, 0), Vec3(1.29, 0.4, 0.8)); }

// snapDistance: unset = softfit's default (0.01 h); 0.01 = the thesis' absolute snapping.
CutCellGrid cuboidGrid(int r, std::optional<double> snapDistance = std::nullopt) {
  LatticeOptions options;
  options.cellSize = 1.0 / r;
  options.snapDistance = snapDistance;
  return CutCellGrid(sampleSdfLattice(thesisCuboid(), options));
}

// Table 4.1, grid free nodes and elements for r = 5..20.
const int kThesisNodes[16] = {675, 1309, 1729, 3105, 3825, 4131, 6479, 7623, 10465, 12025, 13325, 17415, 19575, 25823, 28611, 29733};
const int kThesisCells[16] = {448, 960, 1296, 2464, 3072, 3328, 5400, 6400, 8976, 10368, 11520, 15288, 17248, 23040, 25600, 26624};

void printCounts() {
  std::printf("Thesis cuboid: centre (0,1,0), half-extents (1.29,0.4,0.8), h = 1/r\n");
  std::printf("%4s %8s %13s %13s %10s %14s %10s %22s %16s\n", "r", "h", "active nodes", "active cells", "cut cells",
              "inside-corner", "volume", "snap 0.01 nodes/cells", "Table 4.1");
  for (int r = 5; r <= 20; ++r) {
    const CutCellGrid grid = cuboidGrid(r);
    // Thesis definition of an active cell: a corner node inside (phi < 0).
    int thesis = 0;
    for (const GridCell& c : grid.cells()) {
      const auto phi = grid.lattice().cellValues(c.index[0], c.index[1], c.index[2]);
      thesis += *std::min_element(phi.begin(), phi.end()) < 0.0;
    }
    const CutCellGrid absolute = cuboidGrid(r, 0.01);
    std::printf("%4d %8.5f %13d %13d %10d %14d %10.5f %11d / %-8d %7d / %-6d\n", r, 1.0 / r, grid.nodeCount(),
                grid.cellCount(), grid.partialCellCount(), thesis, grid.insideVolume(), absolute.nodeCount(),
                absolute.cellCount(), kThesisNodes[r - 5], kThesisCells[r - 5]);
  }
  std::printf("(exact volume %.5f; inside-corner = cells active by the thesis definition; snap 0.01 = the thesis'\n"
              " absolute snapping, LatticeOptions::snapDistance; the timed rows use the default 0.01 h)\n\n",
              2.58 * 0.8 * 1.6);
}

void cuboidSteps(benchmark::State& state, bool collision) {
  const int r = static_cast<int>(state.range(0));
  const auto preconditioner = static_cast<PcgPreconditioner>(state.range(1));
  const auto setupStart = Clock::now();
  const CutCellGrid grid = cuboidGrid(r);
  std::vector<Element> elements = buildCutCellElements(grid);
  const int m = static_cast<int>(elements.size());
  PhysicalModel model(grid.restPositions(), std::move(elements), MaterialModel::WarpedCorotated,
                      std::vector<LameParameters>(m, lameFromYoungPoisson(5e4, 0.3)), VecX::Constant(m, 100.0));
  model.gravity = Vec3(0, -10, 0);
  model.damping = {0.1, 0.001};
  model.nodeLattice = grid.nodeLatticeCoordinates();  // what a grid scene's model gets
  if (collision) {
    GroundPlane plane;
    plane.stiffness = 1e7;  // per unit area (the points carry their areas)
    plane.sharpness = 100;
    model.ground = GroundContact(plane, edgeCrossingContactPoints(grid));
  } else {
    DirichletGroup bottom;
    for (int i = 0; i < grid.nodeCount(); ++i)
      if (grid.restPositions()[3 * i + 1] < 0.65) bottom.nodes.push_back(i);
    model.dirichlet = DirichletBoundary({bottom}, model.restPositions());
  }
  IntegratorSettings settings;
  settings.type = IntegratorType::NewmarkTheta;
  settings.theta = 0.6;
  settings.preconditioner = preconditioner;
  settings.solverThreads = gSolverThreads;
  settings.pcgTolerance = gPcgTolerance;
  settings.multigridContactLevels = gContactLevels;
  NewmarkThetaIntegrator integrator(settings);
  State current = restState(model);
  if (collision)
    for (int i = 0; i < model.nodeCount(); ++i) current.v[3 * i + 1] = -3.0;
  const double setupMs = std::chrono::duration<double, std::milli>(Clock::now() - setupStart).count();

  std::vector<double> seconds;
  State previous;
  bool hasPrevious = false;
  int iterations = 0, maxIterations = 0, rebuilds = 0;
  int contactSteps = 0, contactIterations = 0;  // steps that start with a contact point below 1 / alpha
  double minGap = 1e9;
  double cpuSeconds = 0.0;
  for (auto _ : state) {
    double gap = 1e9;  // untimed: closest contact point at the step's start
    if (collision)
      for (const ContactPoint& p : model.ground->points()) gap = std::min(gap, model.ground->distance(current.x, p));
    const bool inContact = collision && gap < 1.0 / model.ground->plane().sharpness;
    const auto start = Clock::now();
    const double cpuStart = processCpuSeconds();
    State next = integrator.step(model, current, hasPrevious ? &previous : nullptr, 0.01);
    const double s = std::chrono::duration<double>(Clock::now() - start).count();
    cpuSeconds += processCpuSeconds() - cpuStart;
    state.SetIterationTime(s);
    seconds.push_back(s);
    iterations += integrator.lastStep().iterations;
    maxIterations = std::max(maxIterations, integrator.lastStep().iterations);
    rebuilds += integrator.lastStep().factorizations;
    if (inContact) {
      ++contactSteps;
      contactIterations += integrator.lastStep().iterations;
    }
    if (gTrace)
      std::fprintf(stderr, "r %d step %2zu gap %+9.5f PCG iterations %3d rebuilds %d cpu ms %8.2f\n", r,
                   seconds.size(), gap, integrator.lastStep().iterations, integrator.lastStep().factorizations,
                   1e3 * (processCpuSeconds() - cpuStart));
    if (collision)  // untimed: closest approach of the contact points to the ground
      for (const ContactPoint& p : model.ground->points()) minGap = std::min(minGap, model.ground->distance(next.x, p));
    previous = std::move(current);
    current = std::move(next);
    hasPrevious = true;
  }
  double later = 0.0;
  for (size_t i = 1; i < seconds.size(); ++i) later += seconds[i];
  double mean = 0.0;
  for (double s : seconds) mean += s;
  mean /= seconds.size();
  const double thesis = (collision ? kThesisCollisionSecondsPerStep : kThesisDirichletSecondsPerStep).at(r);
  state.counters["nodes"] = grid.nodeCount();
  state.counters["cells"] = grid.cellCount();
  state.counters["cut"] = grid.partialCellCount();
  state.counters["setup_ms"] = setupMs;
  state.counters["first_step_ms"] = 1e3 * seconds.front();
  state.counters["later_step_ms"] = 1e3 * later / (seconds.size() - 1);
  state.counters["cpu_ms"] = 1e3 * cpuSeconds / seconds.size();
  state.counters["iters/step"] = static_cast<double>(iterations) / seconds.size();
  state.counters["max_iters"] = maxIterations;
  if (collision && contactSteps > 0) {  // PCG iterations per step in and out of contact
    state.counters["contact_steps"] = contactSteps;
    state.counters["iters/contact_step"] = static_cast<double>(contactIterations) / contactSteps;
    state.counters["iters/free_step"] =
        static_cast<double>(iterations - contactIterations) / std::max<size_t>(1, seconds.size() - contactSteps);
  }
  // Cholesky: factorizations; multigrid: hierarchy (re)builds, coarsest factorization included.
  state.counters["factorizations"] = rebuilds;
  state.counters["multigrid"] = integrator.usesMultigrid(model) ? 1 : 0;
  if (integrator.multigrid()) state.counters["levels"] = integrator.multigrid()->levelCount();
  state.SetLabel(integrator.usesMultigrid(model) ? "multigrid" : "cholesky");
  state.counters["thesis_ms"] = 1e3 * thesis;
  state.counters["ratio"] = mean / thesis;
  if (collision) {
    state.counters["contact_points"] = static_cast<double>(model.ground->points().size());
    state.counters["min_gap"] = minGap;  // it landed: a few 1 / alpha at most
    state.counters["max_penetration"] = model.ground->maxPenetration(current.x);
  }
  double sag = 0.0;  // largest downward displacement of a node
  for (int i = 0; i < model.nodeCount(); ++i) sag = std::max(sag, model.restPositions()[3 * i + 1] - current.x[3 * i + 1]);
  if (!collision) state.counters["sag"] = sag;
}

void dirichlet(benchmark::State& state) { cuboidSteps(state, false); }
void collision(benchmark::State& state) { cuboidSteps(state, true); }

// Second argument: the PcgPreconditioner (1 = Cholesky, 2 = Multigrid).
const std::vector<int64_t> kPreconditioners = {static_cast<int64_t>(PcgPreconditioner::Multigrid),
                                               static_cast<int64_t>(PcgPreconditioner::Cholesky)};
BENCHMARK(dirichlet)
    ->ArgsProduct({{5, 10, 15, 20}, kPreconditioners})
    ->ArgNames({"r", "pc"})
    ->Iterations(kSteps)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK(collision)
    ->ArgsProduct({{5, 10, 15, 20}, kPreconditioners})
    ->ArgNames({"r", "pc"})
    ->Iterations(kSteps)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);

}  // namespace

int main(int argc, char** argv) {
  // Own flag, removed before Google Benchmark sees the arguments.
  int kept = 1;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg.rfind("--solver_threads=", 0) == 0) gSolverThreads = std::stoi(arg.substr(17));
    else if (arg.rfind("--pcg_tolerance=", 0) == 0) gPcgTolerance = std::stod(arg.substr(16));
    else if (arg == "--trace") gTrace = true;
    else if (arg == "--stale_contact_levels") gContactLevels = false;
    else argv[kept++] = argv[i];
  }
  argc = kept;
  printCounts();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
