// Fit benchmark (fit issue): time per fit iteration and total fit time on a ~10k-element
// scene with 30 steps, reconstructing E and nu from 9 virtual depth cameras
// (thesis dragon: ~40 s per iteration on a GPU). Plain timing program; prints a table.
// Usage: fit_bench [cells-per-unit, default 8 -> 12288 tets]
//        fit_bench grid [cell size in m, default 0.02] [data folder holding surface/armadillo_low.obj;
//                   default $SOFTFIT_DATA, else the development checkout's ../shared/data]
//   grid: the armadillo (surface/armadillo_low.obj, ~1 m tall) as an SDF on a
//   cut-cell grid, dropped on the ground, fitted with the thesis grid SDF point cost.
//   (The thesis' dragon and bunny surfaces, dragon_res4.obj / bunny_res3.obj, are not
//   closed manifolds, so no SDF is made of them: softfit refuses open meshes.)
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "forward/integrators/simulator.h"
#include "scene/scene_builder.h"
#include "scene/scene_loader.h"
#include "observations/camera_rig.h"
#include "observations/render_capture.h"
#include "optim/fit_loss.h"
#include "optim/fit_problem.h"
#include "support/box_model.h"

using namespace softfit;

namespace {

// The scene of one benchmark: the body, its start state, and what the cameras see.
struct FitScene {
  std::string label;
  int elements = 0;
  PhysicalModel* model = nullptr;
  State initial;
  IntegratorSettings integrator;
  EmbeddedSurface rendered;  // the surface the cameras render
  Vec3 lo, hi;               // the region the cameras frame
  int maxIterations = 40;
  PointCostGeometry geometry;  // what the point cost measures against
  std::string cost;             // closest or sdf (optim/fit_loss.h)
};

void run(FitScene& s) {
  const int steps = 30;
  auto t0 = std::chrono::steady_clock::now();
  Simulator sim(*s.model, makeIntegrator(s.integrator), 0.01);
  const std::vector<State> states = sim.run(s.initial, steps, true).states;
  CameraRigOptions rig;
  rig.layout = CameraLayout::Hemisphere;
  rig.width = rig.height = 100;
  const auto cameras = camerasAroundBox(s.lo, s.hi, 9, rig);
  const Capture capture = renderCapture(states, s.rendered, cameras, NoiseOptions{}, 1, 0.01);
  const double synthSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

  // The cost as `softfit fit --point-cost` builds it (optim/fit_loss.h).
  const std::unique_ptr<TrajectoryLoss> loss =
      makeCapturePointLoss(s.geometry, capture, pointLossOptions(capture, 0.01, s.cost, {}), s.cost);
  const std::vector<Parameter> kinds = parseParameterList("E,nu");
  FitSetup setup{{s.model, s.integrator, 0.01, steps, s.initial}, loss.get(), {}};
  FitProblem problem(setup, ParameterSpace(kinds, {}), defaultTransforms(kinds));
  VecX start(2);
  start << 7000.0, 0.35;
  OptimizerOptions optimizer;
  optimizer.kind = defaultOptimizer(*loss);  // as `softfit fit --optimizer auto`
  optimizer.maxIterations = s.maxIterations;
  optimizer.gradientTolerance = 1e-12;
  t0 = std::chrono::steady_clock::now();
  const OptimizationResult r = minimize(problem.objective(), problem.toInternal(start), optimizer,
                                        [&](const IterationRecord& it) {
                                          const VecX q = problem.toPhysical(it.point);
                                          std::fprintf(stderr, "iteration %d (%.1f s, %d evaluations): cost %.6e |g| %.3e E %.6g nu %.6g\n",
                                                       it.iteration, it.seconds, it.evaluations, it.cost,
                                                       it.gradientNorm, q[0], q[1]);
                                        });
  const double fitSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const VecX p = problem.toPhysical(r.point);
  std::printf("# softfit fit benchmark\n\n");
  std::printf("| scene | elements | steps | cameras | points | synth s | iterations | evaluations | s / evaluation | s / iteration | total fit s | E (true 5000) | nu (true 0.3) |\n");
  std::printf("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
  std::printf("| %s | %d | %d | %d | %d | %.2f | %d | %d | %.2f | %.2f | %.1f | %.6g | %.6g |\n", s.label.c_str(),
              s.elements, steps, static_cast<int>(cameras.size()), capture.totalPoints(), synthSeconds, r.iterations,
              r.evaluations, fitSeconds / r.evaluations, fitSeconds / std::max(1, r.iterations), fitSeconds, p[0], p[1]);
  std::printf("\nstop: %s\n", r.stopReason.c_str());
}

}  // namespace

int main(int argc, char** argv) {
  IntegratorSettings integrator;
  integrator.type = IntegratorType::NewmarkTheta;
  integrator.theta = 0.6;
  if (argc > 1 && std::string(argv[1]) == "grid") {
    const double h = argc > 2 ? std::atof(argv[2]) : 0.02;
    const std::string data = argc > 3 ? argv[3] : (std::getenv("SOFTFIT_DATA") ? std::getenv("SOFTFIT_DATA") : "../shared/data");
    const std::string surfaceFile = data + "/surface/armadillo_low.obj";
    if (!std::filesystem::exists(surfaceFile)) {
      std::printf("fit_bench grid: %s not found (pass the data folder)\n", surfaceFile.c_str());
      return 0;
    }
    nlohmann::json j = {
        {"sdf", {{"type", "mesh"}, {"file", surfaceFile}, {"scale", 1.0}, {"translate", {0.0, -0.024, 0.0}}, {"cell_size", h}}},
        {"material", {{"model", "warped_corotated"}, {"youngs_modulus", 5000}, {"poisson_ratio", 0.3}, {"density", 100}}},
        {"gravity", {0, -10, 0}},
        {"damping", {{"alpha1", 0.1}, {"alpha2", 0.01}}},
        {"ground", {{"normal", {0, 1, 0}}, {"offset", 0}}},
        {"initial", {{"velocity", {0, -1, 0}}}},
        {"integrator", {{"type", "newmark_theta"}, {"theta", 0.6}}},
        {"time", {{"dt", 0.01}, {"steps", 30}}}};
    const SceneDescription description = parseScene(j, "armadillo", ".");
    BuiltScene built = buildScene(description);
    std::fprintf(stderr, "%s\n", built.summary().c_str());
    FitScene s;
    char label[64];
    std::snprintf(label, sizeof(label), "armadillo, cut-cell grid h = %g m", h);
    s.label = label;
    s.elements = static_cast<int>(built.model->elastic().elements().size());
    s.model = built.model.get();
    s.initial = built.initial;
    s.integrator = description.integrator;
    s.rendered = extractEmbeddedSurface(*built.grid, SurfaceResolution::Samples);
    // The SDF point cost jumps where points change cells, so the fit is the gradient-only
    // L-BFGS (value-based L-BFGS crept after ~15 iterations with long line searches: 18
    // iterations took 1 197 s). Capped: E and nu are within 1e-4 after 8-9 iterations;
    // later steps creep in the gradient's noise floor (|g| ~ 1e-7) for ~30-200 s each
    // before the 1e-7 step test.
    s.maxIterations = 10;
    s.lo = Vec3(-0.1, 0.0, -0.1);
    s.hi = Vec3(0.9, 1.0, 0.9);
    s.geometry.grid = built.grid;
    s.cost = "sdf";
    run(s);
    return 0;
  }
  const int n = argc > 1 ? std::atoi(argv[1]) : 8;
  const TetMesh mesh = makeBoxMesh(Vec3(-0.5, 0.05, -0.125), Vec3(0.5, 0.3, 0.125), 4 * n, n, n);
  auto model = testing::makeBoxModel(mesh, MaterialModel::WarpedCorotated, 5000.0, 0.3, 100.0);
  model->gravity = Vec3(0, -10, 0);
  model->damping = {0.1, 0.01};
  const TriangleMatrix surface = boundaryFaces(mesh);
  std::vector<int> surfaceNodes(surface.data(), surface.data() + surface.size());
  std::sort(surfaceNodes.begin(), surfaceNodes.end());
  surfaceNodes.erase(std::unique(surfaceNodes.begin(), surfaceNodes.end()), surfaceNodes.end());
  model->ground = GroundContact(GroundPlane{Vec3(0, 1, 0), 0.0, 1e4, 100.0}, surfaceNodes);
  FitScene s;
  s.label = "box bar, tets";
  s.elements = mesh.tetCount();
  s.model = model.get();
  s.initial = restState(*model);
  s.initial.v.setZero();
  for (int i = 0; i < model->nodeCount(); ++i) s.initial.v[3 * i + 1] = -1.0;
  s.integrator = integrator;
  s.rendered = identityEmbedding(model->nodeCount(), surface);
  s.lo = Vec3(-0.6, 0.0, -0.3);
  s.hi = Vec3(0.6, 0.35, 0.3);
  s.geometry.surface = &s.rendered;  // the boundary faces, node positions
  s.cost = "closest";
  run(s);
  return 0;
}
