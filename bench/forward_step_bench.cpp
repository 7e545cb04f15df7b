// Per-step time and memory of the forward simulator on a clamped box bar under gravity.
//
// Scene: makeBoxMesh((0,0,0), (4,1,1), 4n, n, n) -> 6 * 4n^3 tets (n = 4, 8, 16 gives
// 1536, 12288, 98304 tets), nodes with x <= 0 clamped, gravity (0, -9.81, 0),
// E = 1e6, nu = 0.3, density 1000, dt = 0.01.
//
// Configurations:
//   linear_newmark     MaterialModel::Linear          + NewmarkTheta (theta 0.6): one
//                      factorization on the first step, then one back-substitution per step.
//   warped_newmark     MaterialModel::WarpedCorotated + NewmarkTheta (theta 0.6): per-step
//                      rotations and K, PCG preconditioned by a cached Cholesky factor.
//   linear_be          MaterialModel::Linear          + BackwardEuler (Newton).
//   corotated_be       MaterialModel::Corotated       + BackwardEuler (projected Newton).
//
// Each benchmark builds the scene, takes the first step untimed (symbolic analysis,
// first factorization; reported as the setup_ms / first_step_ms counters), then times
// one step() of the running simulation per benchmark iteration (manual time, so only
// the integrator's step is measured). Iteration counts are fixed per size so the run
// is short and every benchmark function is entered once (setup done once).
//
// Counters (per benchmark row):
//   tets, nodes, dofs           problem size
//   iters/step                  Newton iterations (BackwardEuler) or PCG iterations
//                               (warped Newmark; 1 = one direct solve for linear Newmark)
//   facts/step                  numeric Cholesky factorizations per timed step
//   setup_ms, first_step_ms     untimed scene setup and first step
//   state_model_MiB             estimate: State (x, v) + PhysicalModel arrays, elements,
//                               Lame parameters, rotations, block pattern
//   matrix_MiB                  one 3N x 3N matrix with the model's sparsity pattern
//                               (the integrators hold 1 to 4 of these, plus the factor)
//   rss_MiB                     resident set size after the last timed step (/proc)
//   rss_delta_MiB               rss_MiB minus the RSS before setup (after malloc_trim):
//                               what this case allocated, Cholesky factor included
//   peak_rss_MiB                process peak RSS so far (getrusage ru_maxrss), monotone
//                               over the run: meaningful for the largest case seen so far
#include <benchmark/benchmark.h>
#include <malloc.h>
#include <sys/resource.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <exception>
#include <memory>
#include <string>
#include <vector>

#include "forward/energies/physical_model.h"
#include "forward/errors.h"
#include "forward/integrators/simulator.h"
#include "forward/integrators/time_integrator.h"
#include "forward/materials/material.h"
#include "forward/mesh/node_selection.h"
#include "forward/mesh/procedural_box.h"
#include "forward/mesh/tet_mesh.h"
#include "forward/registry/integrator_registry.h"

namespace {

using namespace softfit;
using Clock = std::chrono::steady_clock;

constexpr double kMiB = 1024.0 * 1024.0;
constexpr double kDt = 0.01;

struct Config {
  const char* name;
  MaterialModel material;
  IntegratorType integrator;
};

const Config kConfigs[] = {
    {"linear_newmark", MaterialModel::Linear, IntegratorType::NewmarkTheta},
    {"warped_newmark", MaterialModel::WarpedCorotated, IntegratorType::NewmarkTheta},
    {"linear_be", MaterialModel::Linear, IntegratorType::BackwardEuler},
    {"corotated_be", MaterialModel::Corotated, IntegratorType::BackwardEuler},
};

struct Size {
  int n;           // cells across the bar; 4n along it
  int iterations;  // timed steps
};

// ~1k, ~10k, ~100k tets.
const Size kSizes[] = {{4, 100}, {8, 20}, {16, 5}};

double seconds(Clock::time_point a, Clock::time_point b) { return std::chrono::duration<double>(b - a).count(); }

double currentRssMiB() {
  long pages = 0, resident = 0;
  if (FILE* f = std::fopen("/proc/self/statm", "r")) {
    if (std::fscanf(f, "%ld %ld", &pages, &resident) != 2) resident = 0;
    std::fclose(f);
  }
  return static_cast<double>(resident) * static_cast<double>(sysconf(_SC_PAGESIZE)) / kMiB;
}

double peakRssMiB() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_maxrss) / 1024.0;  // ru_maxrss is in KiB on Linux
}

template <class T>
size_t vectorBytes(const std::vector<T>& v) {
  return sizeof(T) * v.capacity();
}

size_t matrixBytes(const SparseMatrix& A) {
  return static_cast<size_t>(A.nonZeros()) * (sizeof(double) + sizeof(int)) +
         static_cast<size_t>(A.outerSize() + 1) * sizeof(int);
}

// State (x, v) plus the model's own arrays. The block pattern's internal index arrays
// are private; they are estimated as one int per 3x3 block plus one per node.
size_t stateModelBytes(const PhysicalModel& model, const State& s, const SparseMatrix& patternMatrix) {
  size_t bytes = sizeof(double) * static_cast<size_t>(s.x.size() + s.v.size());
  bytes += sizeof(double) * static_cast<size_t>(model.restPositions().size() + model.mass().size() +
                                                model.density().size());
  const ElasticEnergy& elastic = model.elastic();
  bytes += vectorBytes(elastic.elements());
  for (const Element& e : elastic.elements()) bytes += vectorBytes(e.nodes) + vectorBytes(e.quadrature);
  bytes += vectorBytes(elastic.parameters()) + vectorBytes(elastic.rotations());
  bytes += sizeof(int) * static_cast<size_t>(patternMatrix.nonZeros() / 9 + model.nodeCount() + 1);
  bytes += model.dirichlet.fixedDofs().size() * sizeof(model.dirichlet.fixedDofs()[0]);
  for (const auto& g : model.dirichlet.groups()) bytes += vectorBytes(g.nodes);
  return bytes;
}

void runCase(benchmark::State& bench, const Config& config, int n) {
  malloc_trim(0);
  const double rssBefore = currentRssMiB();

  const auto t0 = Clock::now();
  const TetMesh mesh = makeBoxMesh(Vec3(0, 0, 0), Vec3(4, 1, 1), 4 * n, n, n);
  const int m = mesh.tetCount();
  PhysicalModel model(mesh.restPositions(), buildTetElements(mesh), config.material,
                      std::vector<LameParameters>(m, lameFromYoungPoisson(1e6, 0.3)), VecX::Constant(m, 1000.0));
  model.gravity = Vec3(0.0, -9.81, 0.0);
  DirichletGroup clamp;
  clamp.nodes = nodesInBox(mesh, Vec3(-1e9, -1e9, -1e9), Vec3(0.0, 1e9, 1e9));
  model.dirichlet = DirichletBoundary({clamp}, model.restPositions());

  IntegratorSettings settings;
  settings.type = config.integrator;
  settings.theta = 0.6;
  std::unique_ptr<TimeIntegrator> integrator = makeIntegrator(settings);
  integrator->reset();

  State previous;
  State current = restState(model);
  const auto t1 = Clock::now();

  State next;
  try {
    next = integrator->step(model, current, nullptr, kDt);
  } catch (const std::exception& e) {
    bench.SkipWithError((std::string("first step: ") + e.what()).c_str());
    return;
  }
  const auto t2 = Clock::now();
  previous = std::move(current);
  current = std::move(next);

  long iterations = 0, factorizations = 0, steps = 0;
  for (auto _ : bench) {
    const auto a = Clock::now();
    try {
      next = integrator->step(model, current, &previous, kDt);
    } catch (const std::exception& e) {
      bench.SkipWithError(e.what());
      break;
    }
    const auto b = Clock::now();
    bench.SetIterationTime(seconds(a, b));
    const StepStatistics& stats = integrator->lastStep();
    iterations += stats.iterations;
    factorizations += stats.factorizations;
    ++steps;
    previous = std::move(current);
    current = std::move(next);
  }

  const SparseMatrix patternMatrix = model.pattern().zeroMatrix();
  const double rssAfter = currentRssMiB();
  const double perStep = steps > 0 ? 1.0 / static_cast<double>(steps) : 0.0;
  bench.counters["tets"] = m;
  bench.counters["nodes"] = model.nodeCount();
  bench.counters["dofs"] = model.dofCount();
  bench.counters["iters/step"] = static_cast<double>(iterations) * perStep;
  bench.counters["facts/step"] = static_cast<double>(factorizations) * perStep;
  bench.counters["setup_ms"] = 1e3 * seconds(t0, t1);
  bench.counters["first_step_ms"] = 1e3 * seconds(t1, t2);
  bench.counters["state_model_MiB"] = static_cast<double>(stateModelBytes(model, current, patternMatrix)) / kMiB;
  bench.counters["matrix_MiB"] = static_cast<double>(matrixBytes(patternMatrix)) / kMiB;
  bench.counters["rss_MiB"] = rssAfter;
  bench.counters["rss_delta_MiB"] = rssAfter - rssBefore;
  bench.counters["peak_rss_MiB"] = peakRssMiB();
}

}  // namespace

int main(int argc, char** argv) {
  // Sizes outermost so the process peak RSS grows with the problem size.
  for (const Size& size : kSizes) {
    const int tets = 6 * 4 * size.n * size.n * size.n;
    for (const Config& config : kConfigs) {
      const std::string name = std::string(config.name) + "/tets:" + std::to_string(tets);
      const Config* c = &config;
      const int n = size.n;
      benchmark::RegisterBenchmark(name.c_str(), [c, n](benchmark::State& s) { runCase(s, *c, n); })
          ->Unit(benchmark::kMillisecond)
          ->UseManualTime()
          ->Iterations(size.iterations);
    }
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
