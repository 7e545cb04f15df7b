// Static neo-Hookean cantilever, the problem issue 21 compares with FEniCS: a 10 x 1 x 1
// bar, 60 x 6 x 6 cubes of 6 tets (12,960 tets, 2,989 nodes, 8,967 dofs), clamped at
// x = 0, under its own weight (density 1000, g = 9.81), Bonet-Wood neo-Hookean
// (E = 2e7, nu = 0.3): the tip sags by about half the length. One quasi-static Newton
// solve from the rest shape per eigenvalue filter.
//
//   build/bench/static_cantilever_bench [filter ...] [--export DIR]
//
// Filters default to exact_first clamp abs none. Environment: CANTILEVER_E (Young's
// modulus, default 2e7), CANTILEVER_TRACE=1 (print the energy per Newton iteration). --export DIR writes DIR/nodes.txt
// (x y z per node), DIR/tets.txt (4 node indices per tet), DIR/displacement.txt (of the
// first filter's solution) and DIR/softfit.txt (iterations, seconds), for
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
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--export" && i + 1 < argc) exportDir = argv[++i];
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

  std::printf("static cantilever: %d tets, %d nodes, %d dofs, neo-Hookean E %g nu 0.3, gravity\n", m,
              static_cast<int>(rest.size() / 3), static_cast<int>(rest.size()), kYoungs);
  std::printf("%-12s %10s %12s %10s %10s %14s\n", "filter", "iterations", "factorized", "wall s", "CPU s",
              "tip sag / L");
  for (size_t k = 0; k < filters.size(); ++k) {
    IntegratorSettings settings;
    settings.type = IntegratorType::QuasiStatic;
    settings.filter = parseEigenvalueFilter(filters[k], "filter argument");
    settings.newton.maxIterations = 200;
    if (std::getenv("CANTILEVER_TRACE"))  // objective value per iteration
      settings.newton.observer = [](int it, const VecX&, double value) { std::printf("    %3d %.17g\n", it, value); };
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
    std::printf("%-12s %10d %12s %10.3f %10.3f %14.4f\n", filters[k].c_str(), s.iterations,
                s.converged ? "converged" : "FAILED", wall, cpu, sag / 10.0);
    if (k == 0 && !exportDir.empty()) {
      std::ofstream nodes(exportDir + "/nodes.txt"), tets(exportDir + "/tets.txt"), u(exportDir + "/displacement.txt"),
          info(exportDir + "/softfit.txt");
      nodes.precision(17);
      u.precision(17);
      for (int n = 0; n < rest.size() / 3; ++n) nodes << rest[3 * n] << ' ' << rest[3 * n + 1] << ' ' << rest[3 * n + 2] << '\n';
      for (int t = 0; t < m; ++t)
        tets << mesh.tets(t, 0) << ' ' << mesh.tets(t, 1) << ' ' << mesh.tets(t, 2) << ' ' << mesh.tets(t, 3) << '\n';
      for (int n = 0; n < rest.size() / 3; ++n)
        u << x[3 * n] - rest[3 * n] << ' ' << x[3 * n + 1] - rest[3 * n + 1] << ' ' << x[3 * n + 2] - rest[3 * n + 2] << '\n';
      info << filters[k] << ' ' << s.iterations << ' ' << wall << ' ' << cpu << '\n';
    }
  }
  return 0;
}
