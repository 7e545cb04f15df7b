// Cost of one Newton iteration of a scene's time steps against its floor: assembling the
// step Hessian (and gradient) once, one CHOLMOD numeric factorization and one solve of
// that matrix. Issue 21 asks for iteration / floor <= 2 on the cut-cell torus.
//
//   build/bench/newton_iteration_cost_bench [scene.json] [steps] [eigenvalue_filter]
//
// Defaults: data/scenes/torus_drop_grid.json, 40 steps, the scene's filter. Runs the
// steps (no output files), then, at the last state, times the floor's parts 5 times each
// (median). Times are wall and process CPU (user + sys of all threads): on a shared
// machine compare CPU times.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <string>
#include <vector>

#include "forward/integrators/step_problem.h"
#include "forward/integrators/trajectory_setup.h"
#include "forward/registry/simulate.h"
#include "forward/solvers/cholesky_solver.h"
#include "forward/solvers/dirichlet_elimination.h"
#include "scene/scene_builder.h"
#include "scene/scene_loader.h"

namespace {

using namespace softfit;

double cpuSeconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}
double wallSeconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

struct Timing {
  double wall = 0.0, cpu = 0.0;
};

// Median over `repeats` runs of f (wall and CPU medians taken separately).
template <typename F>
Timing median(int repeats, F&& f) {
  std::vector<double> wall, cpu;
  for (int r = 0; r < repeats; ++r) {
    const double w0 = wallSeconds(), c0 = cpuSeconds();
    f();
    wall.push_back(wallSeconds() - w0);
    cpu.push_back(cpuSeconds() - c0);
  }
  std::sort(wall.begin(), wall.end());
  std::sort(cpu.begin(), cpu.end());
  return {wall[wall.size() / 2], cpu[cpu.size() / 2]};
}

}  // namespace

int main(int argc, char** argv) {
  const std::string scenePath = argc > 1 ? argv[1] : std::string(SOFTFIT_SOURCE_DIR) + "/data/scenes/torus_drop_grid.json";
  SceneDescription description = loadScene(scenePath);
  description.steps = argc > 2 ? std::stoi(argv[2]) : 40;
  if (argc > 3) description.integrator.filter = parseEigenvalueFilter(argv[3], "argument 3 (eigenvalue_filter)");
  BuiltScene scene = buildScene(description);
  PhysicalModel& model = *scene.model;
  const TrajectorySetup setup = trajectorySetup(description, scene);

  int iterations = 0;
  const double w0 = wallSeconds(), c0 = cpuSeconds();
  const Trajectory trajectory =
      simulate(setup, false, [&](const StepReport& r) { iterations += r.statistics->iterations; });
  const Timing run{wallSeconds() - w0, cpuSeconds() - c0};

  // The floor at the last state: the step Hessian of the step that would follow it.
  const State& last = trajectory.states.back();
  const StepProblem problem = makeStepProblem(model, description.integrator.type, last, nullptr, description.dt);
  StepObjective objective(model, problem, {EigenvalueFilter::None, 0.0});
  SparseMatrix H = objective.hessianPattern();
  VecX g(problem.initialGuess.size()), rhs;
  const VecX zero = VecX::Zero(g.size());
  const VecX& x = problem.initialGuess;
  const Timing assembly = median(5, [&] {
    objective.gradient(x, g);
    objective.hessian(x, H, HessianKind::Exact);
    rhs = -g;
    eliminateDirichlet(H, rhs, problem.fixed, zero);
  });
  CholeskySolver cholesky;
  cholesky.factorize(H);  // symbolic analysis (once per pattern in a run)
  const Timing factorization = median(5, [&] { cholesky.factorize(H); });
  VecX dx;
  const Timing solve = median(5, [&] { dx = cholesky.solve(rhs); });

  const double floorWall = assembly.wall + factorization.wall + solve.wall;
  const double floorCpu = assembly.cpu + factorization.cpu + solve.cpu;
  const int n = std::max(1, iterations);
  std::printf("scene %s\n  %s, %d dofs, filter %s, %d steps, %d Newton iterations (%.2f per step)\n",
              scenePath.c_str(), scene.summary().c_str(), static_cast<int>(x.size()),
              eigenvalueFilterName(description.integrator.filter).c_str(), description.steps, iterations,
              static_cast<double>(iterations) / std::max(1, description.steps));
  std::printf("  run: %.2f s wall, %.2f s CPU\n", run.wall, run.cpu);
  std::printf("  %-34s %10s %10s\n", "per item (ms)", "wall", "CPU");
  std::printf("  %-34s %10.2f %10.2f\n", "Newton iteration (run / iterations)", 1e3 * run.wall / n, 1e3 * run.cpu / n);
  std::printf("  %-34s %10.2f %10.2f\n", "assembly (gradient + Hessian)", 1e3 * assembly.wall, 1e3 * assembly.cpu);
  std::printf("  %-34s %10.2f %10.2f\n", "CHOLMOD factorization", 1e3 * factorization.wall, 1e3 * factorization.cpu);
  std::printf("  %-34s %10.2f %10.2f\n", "CHOLMOD solve", 1e3 * solve.wall, 1e3 * solve.cpu);
  std::printf("  %-34s %10.2f %10.2f\n", "floor (sum of the three)", 1e3 * floorWall, 1e3 * floorCpu);
  std::printf("  iteration / floor: %.2f (wall), %.2f (CPU); factor %.3g GFlop\n", run.wall / n / floorWall,
              run.cpu / n / floorCpu, 1e-9 * cholesky.factorFlops());
  return 0;
}
