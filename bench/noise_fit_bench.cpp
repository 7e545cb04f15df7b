// Noise benchmark (fit issue): E and nu fitted from 9 virtual depth cameras with
// Gaussian noise on the points, with and without the closest-point cost's noise
// correction (PointCloudLossOptions::noiseSigma), on the bouncing boxes of
// tests/optim/point_cloud_fit_test.cpp (tet) and grid_point_cloud_fit_test.cpp (cut-cell
// grid; also with the thesis SDF cost), for several noise seeds. Prints a table.
// Usage: noise_fit_bench [tet|grid|all] [sigma in cells, default 0.5] [tet cells per side,
//        default 6] [grid cell size in m, default 0.05] [seeds, default 3]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string>

#include "forward/integrators/simulator.h"
#include "forward/scene/scene_builder.h"
#include "forward/scene/scene_loader.h"
#include "observations/camera_rig.h"
#include "observations/grid_sdf_point_loss.h"
#include "observations/point_cloud_loss.h"
#include "observations/render_capture.h"
#include "optim/fit_problem.h"
#include "support/box_model.h"

using namespace softfit;

namespace {

struct Scene {
  std::unique_ptr<PhysicalModel> owned;
  BuiltScene built;
  PhysicalModel* model = nullptr;
  State initial;
  IntegratorSettings integrator;
  EmbeddedSurface surface;
  double cell = 0.0;
  std::string name;
};

Scene tetBox(int cells) {
  Scene s;
  const TetMesh mesh = makeBoxMesh(Vec3(-0.15, 0.06, -0.15), Vec3(0.15, 0.36, 0.15), cells, cells, cells);
  s.cell = 0.3 / cells;
  s.owned = testing::makeBoxModel(mesh, MaterialModel::WarpedCorotated, 3000.0, 0.3, 100.0);
  s.model = s.owned.get();
  s.model->gravity = Vec3(0, -10, 0);
  s.model->damping = {0.1, 0.01};
  std::vector<int> nodes(mesh.vertexCount());
  for (int i = 0; i < mesh.vertexCount(); ++i) nodes[i] = i;
  s.model->ground = GroundContact(GroundPlane{Vec3(0.1, 1.0, 0.05).normalized(), 0.02, 1e4, 100.0}, nodes);
  s.initial = restState(*s.model);
  for (int i = 0; i < mesh.vertexCount(); ++i) {
    const Vec3 r = s.model->restPositions().segment<3>(3 * i) - Vec3(0, 0.21, 0);
    s.initial.v.segment<3>(3 * i) = Vec3(0.3, -1.5, 0.1) + Vec3(0.5, 0.2, 1.5).cross(r);
  }
  s.integrator.type = IntegratorType::NewmarkTheta;
  s.integrator.theta = 0.6;
  s.surface = identityEmbedding(mesh.vertexCount(), boundaryFaces(mesh));
  s.name = "tet box " + std::to_string(cells) + "^3 cells";
  return s;
}

Scene gridBox(double cell) {
  Scene s;
  nlohmann::json j = nlohmann::json::parse(R"({
    "sdf": {"type": "box", "center": [0.013, 0.217, -0.008], "half_extents": [0.14, 0.14, 0.14], "cell_size": 0.05},
    "material": {"model": "warped_corotated", "youngs_modulus": 3000, "poisson_ratio": 0.3, "density": 100},
    "gravity": [0, -10, 0],
    "damping": {"alpha1": 0.1, "alpha2": 0.01},
    "ground": {"normal": [0.1, 1.0, 0.05], "offset": 0.02, "stiffness": 1e4, "sharpness": 100},
    "initial": {"velocity": [0.3, -1.5, 0.1], "angular_velocity": [0.5, 0.2, 1.5]},
    "integrator": {"type": "newmark_theta", "theta": 0.6},
    "time": {"dt": 0.01, "steps": 30}
  })");
  j["sdf"]["cell_size"] = cell;
  const SceneDescription d = parseScene(j, "grid-box", ".");
  s.built = buildScene(d);
  s.model = s.built.model.get();
  s.initial = s.built.initial;
  s.integrator = d.integrator;
  s.surface = extractEmbeddedSurface(*s.built.grid, SurfaceResolution::Samples);
  s.cell = cell;
  char buffer[64];
  std::snprintf(buffer, sizeof(buffer), "grid box, cell %.3g m", cell);
  s.name = buffer;
  return s;
}

Capture capture(Scene& s, double sigma, std::uint64_t seed) {
  Simulator sim(*s.model, makeIntegrator(s.integrator), 0.01);
  const std::vector<State> states = sim.run(s.initial, 30, true).states;
  CameraRigOptions rig;
  rig.layout = CameraLayout::Hemisphere;
  rig.width = rig.height = 64;
  const std::vector<Camera> cameras = camerasAroundBox(Vec3(-0.4, -0.1, -0.4), Vec3(0.5, 0.4, 0.5), 9, rig);
  return renderCapture(states, s.surface, cameras, NoiseOptions{sigma, seed}, 1, 0.01);
}

enum class Cost { Closest, ClosestCorrected, Sdf };

void fitRow(Scene& s, const Capture& c, Cost cost, double sigma, std::uint64_t seed) {
  PointCloudLossOptions options;
  options.averageOverPoints = true;
  if (cost == Cost::ClosestCorrected) options.noiseSigma = sigma;
  std::unique_ptr<CaptureLoss> loss;
  if (cost == Cost::Sdf)
    loss = std::make_unique<GridSdfPointLoss>(c, s.built.grid, options);
  else
    loss = std::make_unique<PointCloudSurfaceLoss>(c, s.surface, options, s.model->restPositions());
  const std::vector<ParameterKind> kinds = {ParameterKind::YoungsModulus, ParameterKind::PoissonRatio};
  FitSetup setup{s.model, s.initial, s.integrator, 0.01, 30, loss.get(), {}};
  FitProblem problem(setup, ParameterSpace(kinds, {}), defaultTransforms(kinds));
  const VecX truth = problem.space().values(*s.model);
  VecX start(2);
  start << 4500.0, 0.36;
  OptimizerOptions optimizer;
  optimizer.maxIterations = 60;
  optimizer.gradientTolerance = 1e-12;
  const auto t0 = std::chrono::steady_clock::now();
  const OptimizationResult r = minimize(problem.objective(), problem.toInternal(start), optimizer);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const VecX p = problem.toPhysical(r.point);
  problem.apply(truth);
  const char* costName = cost == Cost::Sdf ? "grid SDF" : cost == Cost::Closest ? "closest" : "closest + noise corr.";
  std::printf("| %s | %s | %.2f | %llu | %.1f | %+.1f%% | %.4f | %+.1f%% | %d | %.0f |\n", s.name.c_str(), costName,
              sigma / s.cell, static_cast<unsigned long long>(seed), p[0], 100.0 * (p[0] / truth[0] - 1.0), p[1],
              100.0 * (p[1] / truth[1] - 1.0), r.iterations, seconds);
  std::fflush(stdout);
}

void run(Scene s, double sigmaCells, int seeds, bool sdf) {
  const double sigma = sigmaCells * s.cell;
  for (int k = 0; k < seeds; ++k) {
    const std::uint64_t seed = 3 + k;
    const Capture c = capture(s, sigma, seed);
    if (sdf) fitRow(s, c, Cost::Sdf, sigma, seed);
    fitRow(s, c, Cost::Closest, sigma, seed);
    fitRow(s, c, Cost::ClosestCorrected, sigma, seed);
  }
}

}  // namespace

int main(int argc, char** argv) {
  const std::string which = argc > 1 ? argv[1] : "all";
  const double sigmaCells = argc > 2 ? std::atof(argv[2]) : 0.5;
  const int tetCells = argc > 3 ? std::atoi(argv[3]) : 6;
  const double gridCell = argc > 4 ? std::atof(argv[4]) : 0.05;
  const int seeds = argc > 5 ? std::atoi(argv[5]) : 3;
  std::printf("| scene | cost | sigma (cells) | seed | E (true 3000) | E err | nu (true 0.3) | nu err | iterations | s |\n");
  std::printf("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
  if (which == "tet" || which == "all") run(tetBox(tetCells), sigmaCells, seeds, false);
  if (which == "grid" || which == "all") run(gridBox(gridCell), sigmaCells, seeds, true);
  return 0;
}
