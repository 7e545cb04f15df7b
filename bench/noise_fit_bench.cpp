// Noise benchmark (fit issue): E and nu fitted from 9 virtual depth cameras with
// Gaussian noise on the points, with and without the closest-point cost's noise
// correction (PointCloudLossOptions::noiseSigma), on the bouncing boxes of
// tests/optim/point_cloud_fit_test.cpp (tet) and grid_point_cloud_fit_test.cpp (cut-cell
// grid; also with the thesis SDF cost), for several noise seeds. Prints a table.
// Usage: noise_fit_bench [tet|grid|gridsdf|gridclosest|all|force|starts|gridstarts] [sigma in cells, default 0.5] [tet cells per side,
//        default 6] [grid cell size in m, default 0.05] [seeds, default 3] [box|ball, default box]
//        [bootstrap steps, default 0 (optim/bootstrap_bias.h)] [first seed, default 3]
//        [bootstrap noise replicates per point, default 1 (NoiseOptions::replicates)]
//        [camera pixels per side, default 64]
// (ball: the tet box's nodes pushed radially onto a ball of the same width
// (testing::ballFromBox), a sphere SDF of radius 0.15 m for the grid)
// Diagnostic: noise_fit_bench gridprofile E0 NU0 E1 NU1 N [PIXELS] prints the grid SDF
// cost and its gradient along a line in (E, nu) (the cost jumps; the gradient is smooth).
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string>

#include "forward/integrators/simulator.h"
#include "scene/scene_builder.h"
#include "scene/scene_loader.h"
#include "observations/camera_rig.h"
#include "observations/render_capture.h"
#include "optim/bootstrap_bias.h"
#include "optim/fit_loss.h"
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
  int pixels = 64;  // camera resolution (pixels per side)
  std::string name;
};

Scene tetBox(int cells, bool ball) {
  Scene s;
  TetMesh mesh = makeBoxMesh(Vec3(-0.15, 0.06, -0.15), Vec3(0.15, 0.36, 0.15), cells, cells, cells);
  if (ball) mesh = testing::ballFromBox(mesh, Vec3(0, 0.21, 0));
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
  s.name = std::string(ball ? "tet ball " : "tet box ") + std::to_string(cells) + "^3 cells";
  return s;
}

Scene gridBox(double cell, bool ball) {
  Scene s;
  nlohmann::json j = nlohmann::json::parse(R"({
    "sdf": {"type": "box", "center": [0.013, 0.217, -0.008], "half_extents": [0.14, 0.14, 0.14], "cell_size": 0.05},
    "material": {"model": "warped_corotated", "youngs_modulus": 3000, "poisson_ratio": 0.3, "density": 100},
    "gravity": [0, -10, 0],
    "damping": {"alpha1": 0.1, "alpha2": 0.01},
    "ground": {"normal": [0.1, 1.0, 0.05], "offset": 0.02, "stiffness": 1e7, "sharpness": 100},
    "initial": {"velocity": [0.3, -1.5, 0.1], "angular_velocity": [0.5, 0.2, 1.5]},
    "integrator": {"type": "newmark_theta", "theta": 0.6},
    "time": {"dt": 0.01, "steps": 30}
  })");
  j["sdf"]["cell_size"] = cell;
  if (ball) j["sdf"] = {{"type", "sphere"}, {"center", {0.013, 0.217, -0.008}}, {"radius", 0.15}, {"cell_size", cell}};
  const SceneDescription d = parseScene(j, "grid-box", ".");
  s.built = buildScene(d);
  s.model = s.built.model.get();
  s.initial = s.built.initial;
  s.integrator = d.integrator;
  s.surface = extractEmbeddedSurface(*s.built.grid, SurfaceResolution::Samples);
  s.cell = cell;
  char buffer[64];
  std::snprintf(buffer, sizeof(buffer), "grid %s, cell %.3g m", ball ? "ball" : "box", cell);
  s.name = buffer;
  return s;
}

Capture capture(Scene& s, double sigma, std::uint64_t seed, int replicates = 1) {
  Simulator sim(*s.model, makeIntegrator(s.integrator), 0.01);
  const std::vector<State> states = sim.run(s.initial, 30, true).states;
  CameraRigOptions rig;
  rig.layout = CameraLayout::Hemisphere;
  rig.width = rig.height = s.pixels;
  const std::vector<Camera> cameras = camerasAroundBox(Vec3(-0.4, -0.1, -0.4), Vec3(0.5, 0.4, 0.5), 9, rig);
  return renderCapture(states, s.surface, cameras, NoiseOptions{sigma, seed, replicates}, 1, 0.01);
}

enum class Cost { Closest, ClosestCorrected, Sdf };

// The cost of a capture as `softfit fit --point-cost closest|sdf [--noise-sigma]` builds
// it (optim/fit_loss.h), measured against the surface the cameras render.
std::unique_ptr<CaptureLoss> pointLoss(const Scene& s, const Capture& c, Cost cost, double sigma) {
  FitLossOptions fitLoss;
  fitLoss.noiseSigma = cost == Cost::ClosestCorrected ? sigma : 0.0;
  const std::string name = cost == Cost::Sdf ? "sdf" : "closest";
  const PointCostGeometry geometry{&s.surface, s.built.grid, &s.model->restPositions(), {}};
  return makeCapturePointLoss(geometry, c, pointLossOptions(c, 0.01, name, fitLoss), name);
}

// One fit of E and nu from `start`; returns the physical estimate (the model stays at the
// true parameters).
VecX fitOnce(Scene& s, const Capture& c, Cost cost, double sigma, const VecX& start, int* iterations = nullptr,
             std::string* stop = nullptr) {
  const std::unique_ptr<CaptureLoss> loss = pointLoss(s, c, cost, sigma);
  const std::vector<Parameter> kinds = parseParameterList("E,nu");
  FitSetup setup{{s.model, s.integrator, 0.01, 30, s.initial}, loss.get(), {}};
  FitProblem problem(setup, ParameterSpace(kinds, {}), defaultTransforms(kinds));
  OptimizerOptions optimizer;
  optimizer.maxIterations = 60;
  optimizer.gradientTolerance = 1e-12;
  optimizer.kind = defaultOptimizer(*loss);  // as `softfit fit --optimizer auto`
  const OptimizationResult r = minimize(problem.objective(), problem.toInternal(start), optimizer);
  if (iterations) *iterations = r.iterations;
  if (stop) *stop = r.stopReason + ", " + std::to_string(r.evaluations) + " evaluations";
  return problem.toPhysical(r.point);
}

// Internal (fit) coordinates of E and nu.
TransformSet transforms() { return defaultTransforms(parseParameterList("E,nu")); }

void fitRow(Scene& s, const Capture& c, Cost cost, double sigma, std::uint64_t seed, int bootstrap, int replicates) {
  VecX start(2);
  start << 4500.0, 0.36;
  const auto t0 = std::chrono::steady_clock::now();
  int iterations = 0;
  VecX p = fitOnce(s, c, cost, sigma, start, &iterations);
  const VecX truth = (VecX(2) << 3000.0, 0.3).finished();
  const char* costName = cost == Cost::Sdf ? "grid SDF" : cost == Cost::Closest ? "closest" : "closest + noise corr.";
  const auto row = [&](const VecX& q, const std::string& extra) {
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf("| %s | %s%s | %.2f | %llu | %.1f | %+.1f%% | %.4f | %+.1f%% | %d | %.0f |\n", s.name.c_str(), costName,
                extra.c_str(), sigma / s.cell, static_cast<unsigned long long>(seed), q[0],
                100.0 * (q[0] / truth[0] - 1.0), q[1], 100.0 * (q[1] / truth[1] - 1.0), iterations, seconds);
    std::fflush(stdout);
  };
  row(p, "");
  if (bootstrap <= 0) return;
  // Parametric bootstrap: re-simulate and re-render at q with fresh noise, refit as the
  // original (same start: the procedure is what is bootstrapped).
  const TransformSet t = transforms();
  int round = 0;
  const auto reestimate = [&](const VecX& q) {
    const VecX physical = t.toPhysical(q);
    ParameterSpace space(parseParameterList("E,nu"), {});
    State unused = s.initial;
    space.apply(physical, *s.model, unused);
    const Capture synthetic = capture(s, sigma, seed + 1000 + static_cast<std::uint64_t>(round++), replicates);
    space.apply(truth, *s.model, unused);
    int it = 0;
    const VecX r = fitOnce(s, synthetic, cost, sigma, start, &it);  // the whole procedure, same start
    iterations += it;
    return VecX(t.toInternal(r));
  };
  const VecX estimate = t.toInternal(p);
  std::vector<BootstrapStep> history;
  bootstrapBiasCorrection(estimate, reestimate, bootstrap, &history);
  for (size_t k = 0; k < history.size(); ++k)
    row(t.toPhysical(history[k].point + estimate - history[k].reestimate),
        " + bootstrap " + std::to_string(k + 1) + (replicates > 1 ? " (" + std::to_string(replicates) + " replicates)" : ""));
}

// sdf: 0 = closest-point costs only, 1 = also the grid SDF cost, 2 = only the grid SDF cost.
void run(Scene s, double sigmaCells, int firstSeed, int seeds, int sdf, int bootstrap, int replicates) {
  const double sigma = sigmaCells * s.cell;
  for (int k = 0; k < seeds; ++k) {
    const std::uint64_t seed = static_cast<std::uint64_t>(firstSeed + k);
    const Capture c = capture(s, sigma, seed);
    if (sdf > 0) fitRow(s, c, Cost::Sdf, sigma, seed, bootstrap, replicates);
    if (sdf == 2) continue;
    if (bootstrap == 0) fitRow(s, c, Cost::Closest, sigma, seed, 0, 1);
    fitRow(s, c, Cost::ClosestCorrected, sigma, seed, bootstrap, replicates);
  }
}

// Diagnostic: at the true trajectory, the radial "inflation force" of each cost,
// -sum_nodes dL/dx_a . (x_a - c) / |x_a - c| (c: centroid), summed over the frames: > 0
// when an inflated body would score better. Noise-free data gives 0.
void forces(Scene& s, double sigma, int seeds) {
  Simulator sim(*s.model, makeIntegrator(s.integrator), 0.01);
  const std::vector<State> states = sim.run(s.initial, 30, true).states;
  for (int k = 0; k < seeds; ++k) {
    const Capture c = capture(s, sigma, 3 + k);
    for (const bool corrected : {false, true}) {
      const std::unique_ptr<CaptureLoss> owned = pointLoss(s, c, corrected ? Cost::ClosestCorrected : Cost::Closest, sigma);
      CaptureLoss& loss = *owned;
      double radial = 0.0;
      for (int step = 0; step <= 30; ++step) {
        VecX gx = VecX::Zero(states[step].x.size()), gv = gx;
        loss.evaluate(step, states[step], gx, gv);
        Vec3 centroid = Vec3::Zero();
        const int n = static_cast<int>(gx.size() / 3);
        for (int a = 0; a < n; ++a) centroid += states[step].x.segment<3>(3 * a) / n;
        for (int a = 0; a < n; ++a) {
          const Vec3 r = states[step].x.segment<3>(3 * a) - centroid;
          radial -= gx.segment<3>(3 * a).dot(r.normalized());
        }
      }
      const std::vector<Parameter> kinds = parseParameterList("E,nu");
      FitSetup setup{{s.model, s.integrator, 0.01, 30, s.initial}, &loss, {}};
      FitProblem problem(setup, ParameterSpace(kinds, {}), defaultTransforms(kinds));
      VecX g(2);
      problem.objective()(problem.toInternal(problem.space().values(*s.model)), g);
      std::printf("  dL/dq at the truth (internal coordinates): %.4g %.4g\n", g[0], g[1]);
      std::printf("%s seed %d %s: radial force %.4g (per sigma^2: %.4g)\n", s.name.c_str(), 3 + k,
                  corrected ? "corrected" : "plain", radial, radial / (sigma * sigma));
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  const std::string which = argc > 1 ? argv[1] : "all";
  if (which == "gridprofile") {
    // noise_fit_bench gridprofile E0 NU0 E1 NU1 N [PIXELS]: the grid SDF cost of the
    // default grid box (noise 0.5 cell, seed 3) and its gradient (internal coordinates) at
    // N + 1 points on the line from (E0, NU0) to (E1, NU1).
    if (argc < 7) {
      std::fprintf(stderr, "usage: noise_fit_bench gridprofile E0 NU0 E1 NU1 N [PIXELS]\n");
      return 1;
    }
    Scene g = gridBox(0.05, false);
    g.pixels = argc > 7 ? std::atoi(argv[7]) : 64;
    const Capture c = capture(g, 0.5 * g.cell, 3);
    const std::unique_ptr<CaptureLoss> owned = pointLoss(g, c, Cost::Sdf, 0.0);
    CaptureLoss& loss = *owned;
    const std::vector<Parameter> kinds = parseParameterList("E,nu");
    FitSetup setup{{g.model, g.integrator, 0.01, 30, g.initial}, &loss, {}};
    FitProblem problem(setup, ParameterSpace(kinds, {}), defaultTransforms(kinds));
    const VecX a = (VecX(2) << std::atof(argv[2]), std::atof(argv[3])).finished();
    const VecX b = (VecX(2) << std::atof(argv[4]), std::atof(argv[5])).finished();
    const int n = std::max(1, std::atoi(argv[6]));
    for (int k = 0; k <= n; ++k) {
      const VecX q = a + (b - a) * (static_cast<double>(k) / n);
      VecX grad(2);
      const double f = problem.objective()(problem.toInternal(q), grad);
      std::printf("E %.2f nu %.5f cost %.12e gradient %.6e %.6e\n", q[0], q[1], f, grad[0], grad[1]);
      std::fflush(stdout);
    }
    return 0;
  }
  const double sigmaCells = argc > 2 ? std::atof(argv[2]) : 0.5;
  const int tetCells = argc > 3 ? std::atoi(argv[3]) : 6;
  const double gridCell = argc > 4 ? std::atof(argv[4]) : 0.05;
  const int seeds = argc > 5 ? std::atoi(argv[5]) : 3;
  const bool ball = argc > 6 && std::string(argv[6]) == "ball";
  const int bootstrap = argc > 7 ? std::atoi(argv[7]) : 0;
  const int firstSeed = argc > 8 ? std::atoi(argv[8]) : 3;
  const int replicates = argc > 9 ? std::atoi(argv[9]) : 1;
  const int pixels = argc > 10 ? std::atoi(argv[10]) : 64;
  auto withPixels = [pixels](Scene s) {
    s.pixels = pixels;
    return s;
  };
  std::printf("| scene | cost | sigma (cells) | seed | E (true 3000) | E err | nu (true 0.3) | nu err | iterations | s |\n");
  std::printf("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
  if (which == "starts" || which == "gridstarts") {  // seed 3 from several starts
    const bool grid = which == "gridstarts";  // grid: the SDF cost; tets: the corrected closest-point cost
    Scene t = withPixels(grid ? gridBox(gridCell, ball) : tetBox(tetCells, ball));
    const double sigma = sigmaCells * t.cell;
    const Capture c = capture(t, sigma, 3);
    for (const auto& [e, nu] : std::vector<std::pair<double, double>>{{3000, 0.3}, {4500, 0.36}, {2500, 0.25}, {3000, 0.33}}) {
      int it = 0;
      std::string stop;
      const VecX p = fitOnce(t, c, grid ? Cost::Sdf : Cost::ClosestCorrected, sigma, (VecX(2) << e, nu).finished(), &it, &stop);
      std::printf("start (%g, %g): E %.1f nu %.4f after %d iterations (%s)\n", e, nu, p[0], p[1], it, stop.c_str());
      std::fflush(stdout);
    }
    return 0;
  }
  if (which == "force") {
    Scene t = tetBox(tetCells, ball);
    forces(t, sigmaCells * t.cell, seeds);
    Scene g = gridBox(gridCell, ball);
    forces(g, sigmaCells * gridCell, seeds);
    return 0;
  }
  if (which == "tet" || which == "all")
    run(withPixels(tetBox(tetCells, ball)), sigmaCells, firstSeed, seeds, 0, bootstrap, replicates);
  if (which == "grid" || which == "all")
    run(withPixels(gridBox(gridCell, ball)), sigmaCells, firstSeed, seeds, 1, bootstrap, replicates);
  if (which == "gridsdf") run(withPixels(gridBox(gridCell, ball)), sigmaCells, firstSeed, seeds, 2, bootstrap, replicates);
  if (which == "gridclosest")
    run(withPixels(gridBox(gridCell, ball)), sigmaCells, firstSeed, seeds, 0, bootstrap, replicates);
  return 0;
}
