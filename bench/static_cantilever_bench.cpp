// Static neo-Hookean cantilever, the problem issue 21 compares with FEniCS: a 10 x 1 x 1
// bar, 60 x 6 x 6 cubes of 6 tets (12,960 tets, 2,989 nodes, 8,967 dofs), clamped at
// x = 0, under its own weight (density 1000, g = 9.81), Bonet-Wood neo-Hookean
// (E = 2e7, nu = 0.3): the tip sags by about half the length. One quasi-static Newton
// solve from the rest shape per eigenvalue filter.
//
//   build/bench/static_cantilever_bench [filter ...] [--watchdog N] [--no-ldlt] [--export DIR]
//
// Filters default to exact_first clamp abs none; each runs with softfit's default
// stopping rule and with FEniCS' (relative residual 1e-9). --watchdog N sets
// NewtonOptions::watchdogSteps (0: plain backtracking, the old line search). --no-ldlt:
// exact_first goes straight to clamp where the exact Hessian's Cholesky fails
// (NewtonOptions::indefiniteExactSteps false, the behaviour before 2026-11-26). Environment: CANTILEVER_E (Young's
// modulus, default 2e7), CANTILEVER_TRACE=1 (print each Newton iteration: Hessian, gradient,
// step, step length, energy). --export DIR writes DIR/nodes.txt
// (x y z per node), DIR/tets.txt (4 node indices per tet), DIR/displacement.txt and
// DIR/softfit.txt (the first filter's solution; filter, iterations, wall and CPU
// seconds) and the same with suffix _fenics_rule under FEniCS' stopping rule, for
// bench/fenics_cantilever.py, which solves the same discrete problem with FEniCS.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <string>
#include <vector>

#include "forward/integrators/quasi_static_solver.h"
#include "forward/integrators/simulator.h"
#include "forward/mesh/node_selection.h"
#include "forward/mesh/procedural_box.h"
#include "forward/mesh/tet_mesh.h"

namespace {

using namespace softfit;

const double kYoungs = std::getenv("CANTILEVER_E") ? std::atof(std::getenv("CANTILEVER_E")) : 2e7;

double cpuSeconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> filters;
  std::string exportDir;
  int watchdog = NewtonOptions{}.watchdogSteps;
  bool ldlt = NewtonOptions{}.indefiniteExactSteps;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--export" && i + 1 < argc) exportDir = argv[++i];
    else if (a == "--watchdog" && i + 1 < argc) watchdog = std::atoi(argv[++i]);
    else if (a == "--no-ldlt") ldlt = false;
    else filters.push_back(a);
  }
  if (filters.empty()) filters = {"exact_first", "clamp", "abs", "none"};

  const TetMesh mesh = makeBoxMesh(Vec3(0, 0, 0), Vec3(10, 1, 1), 60, 6, 6);
  const int m = mesh.tetCount();
  PhysicalModel model(mesh.restPositions(), buildTetElements(mesh), MaterialModel::NeoHookean,
                      std::vector<LameParameters>(m, lameFromYoungPoisson(kYoungs, 0.3)), VecX::Constant(m, 1000.0));
  model.gravity = Vec3(0.0, -9.81, 0.0);
  DirichletGroup clamp;
  clamp.nodes = nodesInBox(mesh, Vec3(-1e9, -1e9, -1e9), Vec3(1e-9, 1e9, 1e9));
  model.dirichlet = DirichletBoundary({clamp}, model.restPositions());
  const VecX rest = model.restPositions();
  // The tip node at the top of the free end's centre line is not a node (6 cells): use
  // the free end's mean vertical displacement.
  const std::vector<int> tip = nodesInBox(mesh, Vec3(10 - 1e-9, -1e9, -1e9), Vec3(1e9, 1e9, 1e9));

  std::printf("static cantilever: %d tets, %d nodes, %d dofs, neo-Hookean E %g nu 0.3, gravity; watchdog %d, LDL^T steps %s\n",
              m, static_cast<int>(rest.size() / 3), static_cast<int>(rest.size()), kYoungs, watchdog,
              ldlt ? "on" : "off");
  std::printf("%-12s %-22s %10s %12s %10s %10s %14s\n", "filter", "stop", "iterations", "factorized", "wall s",
              "CPU s", "tip sag / L");
  // Stopping rules: softfit's default (Newton step below 1e-10 of the size), and FEniCS'
  // (gradient 2-norm below 1e-9 of the initial one, checked before each solve).
  const char* rules[] = {"step 1e-10 L (default)", "residual 1e-9 (FEniCS)"};
  for (size_t k = 0; k < filters.size(); ++k) {
    for (int rule = 0; rule < 2; ++rule) {
      IntegratorSettings settings;
      settings.type = IntegratorType::QuasiStatic;
      settings.filter = parseEigenvalueFilter(filters[k], "filter argument");
      settings.newton.maxIterations = 200;
      settings.newton.watchdogSteps = watchdog;
      settings.newton.indefiniteExactSteps = ldlt;
      if (rule == 1) settings.newton.relativeGradientTolerance = 1e-9;
      if (std::getenv("CANTILEVER_TRACE"))  // what each Newton iteration did
        settings.newton.trace = [](const NewtonIterationInfo& i) {
          std::printf("    %3d %-8s |g|_2 %10.3e |dx|_inf %10.3e alpha %8.5f energy %.17g\n", i.iteration,
                      i.indefinite ? "ldlt" : i.exactHessian ? "exact" : "filtered", i.gradientNorm, i.stepNorm, i.alpha, i.value);
        };
      QuasiStaticSolver solver(settings);
      const auto w0 = std::chrono::steady_clock::now();
      const double c0 = cpuSeconds();
      const VecX x = solver.solve(model, rest, 0.0);
      const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - w0).count();
      const double cpu = cpuSeconds() - c0;
      double sag = 0.0;
      for (int n : tip) sag += rest[3 * n + 1] - x[3 * n + 1];
      sag /= tip.size();
      const StepStatistics& s = solver.lastStep();
      std::printf("%-12s %-22s %10d %12s %10.3f %10.3f %14.4f\n", filters[k].c_str(), rules[rule], s.iterations,
                  s.converged ? "converged" : "FAILED", wall, cpu, sag / 10.0);
      if (k == 0 && !exportDir.empty()) {
        const std::string suffix = rule == 0 ? "" : "_fenics_rule";
        std::ofstream u(exportDir + "/displacement" + suffix + ".txt"), info(exportDir + "/softfit" + suffix + ".txt");
        u.precision(17);
        for (int n = 0; n < rest.size() / 3; ++n)
          u << x[3 * n] - rest[3 * n] << ' ' << x[3 * n + 1] - rest[3 * n + 1] << ' ' << x[3 * n + 2] - rest[3 * n + 2]
            << '\n';
        info << filters[k] << ' ' << s.iterations << ' ' << wall << ' ' << cpu << '\n';
      }
    }
  }
  if (!exportDir.empty()) {
    std::ofstream nodes(exportDir + "/nodes.txt"), tets(exportDir + "/tets.txt");
    nodes.precision(17);
    for (int n = 0; n < rest.size() / 3; ++n) nodes << rest[3 * n] << ' ' << rest[3 * n + 1] << ' ' << rest[3 * n + 2] << '\n';
    for (int t = 0; t < m; ++t)
      tets << mesh.tets(t, 0) << ' ' << mesh.tets(t, 1) << ' ' << mesh.tets(t, 2) << ' ' << mesh.tets(t, 3) << '\n';
  }
  return 0;
}
