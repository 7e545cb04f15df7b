// Fit benchmark (fit issue): time per fit iteration and total fit time on a ~10k-tet
// scene with 30 steps, reconstructing E and nu from 9 virtual depth cameras
// (thesis dragon: ~40 s per iteration on a GPU). Plain timing program; prints a table.
// Usage: fit_bench [cells-per-unit, default 8 -> 12288 tets]
#include <chrono>
#include <cstdio>
#include <cstdlib>

#include "forward/integrators/simulator.h"
#include "observations/camera_rig.h"
#include "observations/point_cloud_loss.h"
#include "observations/render_capture.h"
#include "optim/fit_problem.h"
#include "support/box_model.h"

using namespace softfit;

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 8;
  const int steps = 30;
  const TetMesh mesh = makeBoxMesh(Vec3(-0.5, 0.05, -0.125), Vec3(0.5, 0.3, 0.125), 4 * n, n, n);
  auto model = testing::makeBoxModel(mesh, MaterialModel::WarpedCorotated, 5000.0, 0.3, 100.0);
  model->gravity = Vec3(0, -10, 0);
  model->damping = {0.1, 0.01};
  const TriangleMatrix surface = boundaryFaces(mesh);
  std::vector<int> surfaceNodes(surface.data(), surface.data() + surface.size());
  std::sort(surfaceNodes.begin(), surfaceNodes.end());
  surfaceNodes.erase(std::unique(surfaceNodes.begin(), surfaceNodes.end()), surfaceNodes.end());
  model->ground = GroundContact(GroundPlane{Vec3(0, 1, 0), 0.0, 1e4, 100.0}, surfaceNodes);
  State initial = restState(*model);
  initial.v.setZero();
  for (int i = 0; i < model->nodeCount(); ++i) initial.v[3 * i + 1] = -1.0;
  IntegratorSettings integrator;
  integrator.type = IntegratorType::NewmarkTheta;
  integrator.theta = 0.6;

  auto t0 = std::chrono::steady_clock::now();
  Simulator sim(*model, makeIntegrator(integrator), 0.01);
  const std::vector<State> states = sim.run(initial, steps, true).states;
  CameraRigOptions rig;
  rig.layout = CameraLayout::Hemisphere;
  rig.width = rig.height = 100;
  const auto cameras = camerasAroundBox(Vec3(-0.6, 0.0, -0.3), Vec3(0.6, 0.35, 0.3), 9, rig);
  const Capture capture = renderCapture(states, surface, cameras, NoiseOptions{}, 1, 0.01);
  const double synthSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

  PointCloudLossOptions options;
  options.averageOverPoints = true;
  PointCloudSurfaceLoss loss(capture, surface, options);
  const std::vector<ParameterKind> kinds = {ParameterKind::YoungsModulus, ParameterKind::PoissonRatio};
  FitSetup setup{model.get(), initial, integrator, 0.01, steps, &loss, {}};
  FitProblem problem(setup, ParameterSpace(kinds, {}), defaultTransforms(kinds));
  VecX start(2);
  start << 7000.0, 0.35;
  OptimizerOptions optimizer;
  optimizer.maxIterations = 40;
  optimizer.gradientTolerance = 1e-12;
  t0 = std::chrono::steady_clock::now();
  const OptimizationResult r = minimize(problem.objective(), problem.toInternal(start), optimizer);
  const double fitSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const VecX p = problem.toPhysical(r.point);
  std::printf("# softfit fit benchmark\n\n");
  std::printf("| tets | steps | cameras | points | synth s | iterations | evaluations | s / evaluation | s / iteration | total fit s | E (true 5000) | nu (true 0.3) |\n");
  std::printf("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
  std::printf("| %d | %d | %d | %d | %.2f | %d | %d | %.2f | %.2f | %.1f | %.6g | %.6g |\n", mesh.tetCount(), steps,
              static_cast<int>(cameras.size()), capture.totalPoints(), synthSeconds, r.iterations, r.evaluations,
              fitSeconds / r.evaluations, fitSeconds / std::max(1, r.iterations), fitSeconds, p[0], p[1]);
  std::printf("\nstop: %s\n", r.stopReason.c_str());
  return 0;
}
