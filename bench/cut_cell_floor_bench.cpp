// The volume-fraction floor of nearly empty cut cells (grid/README.md,
// `min_cell_fraction`) on the thesis grids, with the floor off and at the default:
// each node's lumped mass against an interior node's (rho h^3), the scene's true run
// (its own steps, integrator and PCG preconditioner), the largest distance a node gets
// from its rest position, and the PCG iterations per step.
//
//   build/bench/cut_cell_floor_bench [--surfaces=DIR] [--only=bunny,dragon,torus] [--steps=N]
//                                    [--scene=FILE.json ...]
//
// --scene runs grid scene files instead of the thesis scenes (e.g. the demo box,
// bench/reconstruct_scenes/box_throw_grid.json).
// The bunny and dragon need the thesis surfaces (--surfaces=DIR; default: the development
// checkout's ../shared/data/surface next to the source tree); without them their rows
// say so. CPU: process seconds of the run.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "bench/thesis_reproduction_scenes.h"
#include "forward/integrators/simulator.h"
#include "forward/registry/simulate.h"
#include "scene/scene_builder.h"
#include "scene/scene_loader.h"

namespace {

using namespace softfit;

// Process CPU seconds, all threads (glibc's clock()).
double cpuSeconds() { return static_cast<double>(std::clock()) / CLOCKS_PER_SEC; }

void runCase(const std::string& name, nlohmann::json scene, const std::string& directory, double minCellFraction,
             int maxSteps) {
  scene["sdf"]["min_cell_fraction"] = minCellFraction;
  const SceneDescription description = parseScene(scene, name, directory);
  BuiltScene built = buildScene(description);
  const double h = built.grid->cellSize();
  const double interior = description.material.density * h * h * h;
  const VecX& mass = built.model->mass();
  const int nodes = built.grid->nodeCount();
  int light[3] = {0, 0, 0};  // below 1e-10, 1e-6, 1e-4 of an interior node
  for (int a = 0; a < nodes; ++a) {
    const double r = mass[3 * a] / interior;
    light[0] += r < 1e-10;
    light[1] += r < 1e-6;
    light[2] += r < 1e-4;
  }
  const double added = built.model->totalMass() / (description.material.density * built.grid->insideVolume()) - 1.0;
  std::printf("| %s | %g | %.2e | %d / %d / %d | %+.3f%% |", name.c_str(), minCellFraction, mass.minCoeff() / interior,
              light[0], light[1], light[2], std::abs(added) < 1e-12 ? 0.0 : 100.0 * added);
  std::fflush(stdout);
  const int steps = maxSteps > 0 ? std::min(maxSteps, description.steps) : description.steps;
  Simulator simulator(*built.model, makeIntegrator(description.integrator), description.dt);
  const VecX& rest = built.grid->restPositions();
  double excursion = 0.0;
  int iterations = 0, most = 0;
  const double start = cpuSeconds();
  try {
    simulator.run(built.initial, steps, false, [&](const StepReport& r) {
      for (int a = 0; a < nodes; ++a)
        excursion = std::max(excursion, (r.state->x.segment<3>(3 * a) - rest.segment<3>(3 * a)).norm());
      iterations += r.statistics->iterations;
      most = std::max(most, r.statistics->iterations);
    });
    std::printf(" %d | %.3g | %.1f / %d | %.1f |\n", steps, excursion, double(iterations) / steps, most, cpuSeconds() - start);
  } catch (const std::exception& e) {
    std::printf(" %d | failed: %s | | %.1f |\n", steps, e.what(), cpuSeconds() - start);
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::string surfaces = std::string(SOFTFIT_SOURCE_DIR) + "/../shared/data/surface";
  std::string only = "bunny,dragon,torus";
  int maxSteps = 0;
  std::vector<std::string> sceneFiles;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg.rfind("--surfaces=", 0) == 0) surfaces = arg.substr(11);
    else if (arg.rfind("--only=", 0) == 0) only = arg.substr(7);
    else if (arg.rfind("--steps=", 0) == 0) maxSteps = std::stoi(arg.substr(8));
    else if (arg.rfind("--scene=", 0) == 0) sceneFiles.push_back(arg.substr(8));
    else {
      std::fprintf(stderr, "usage: cut_cell_floor_bench [--surfaces=DIR] [--only=bunny,dragon,torus] [--steps=N] [--scene=FILE ...]\n");
      return 2;
    }
  }
  std::printf("| scene | min_cell_fraction | min node mass / rho h^3 | nodes below 1e-10 / 1e-6 / 1e-4 | mass added | steps | max node excursion m | PCG iterations mean / max | CPU s |\n");
  std::printf("|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
  const auto wanted = [&](const char* name) { return ("," + only + ",").find(std::string(",") + name + ",") != std::string::npos; };
  const double floors[] = {0.0, CutCellQuadratureOptions::kDefaultMinCellFraction};
  for (const std::string& file : sceneFiles) {
    try {
      std::ifstream in(file);
      const nlohmann::json scene = nlohmann::json::parse(in);
      for (const double f : floors) runCase(file, scene, std::filesystem::path(file).parent_path().string(), f, maxSteps);
    } catch (const std::exception& e) {
      std::printf("| %s | not run: %s |\n", file.c_str(), e.what());
    }
  }
  for (const char* name : {"bunny", "dragon", "torus"}) {
    if (!sceneFiles.empty() || !wanted(name)) continue;
    nlohmann::json scene;
    try {
      if (std::string(name) == "bunny") scene = thesis::bunnyScene(surfaces, 0.0298, 1.662, 1.582, 0.0);
      else if (std::string(name) == "dragon") scene = thesis::dragonScene(surfaces, 0.0205);
      else scene = thesis::torusScene(0.041);
      for (const double f : floors) runCase(name, scene, ".", f, maxSteps);
    } catch (const std::exception& e) {
      std::printf("| %s | not run: %s |\n", name, e.what());
    }
  }
  return 0;
}
