// Fig. 5.8 (sparse point cost under noise) and Fig. 5.9 / 5.10 (swinging torus): E and
// nu from virtual depth cameras (Sphere layout around the trajectory's bounding box) with
// the thesis' point cost (5.4.3: points located in the deformed cells, reference SDF;
// GridSdfPointLoss, averaged over each frame's points), gradient-only L-BFGS (the cost's
// value jumps where points change cell; `softfit fit --optimizer auto` uses it too).
// Noise: isotropic Gaussian, sigma in voxels (cells) on every coordinate, seed 1.
#include <chrono>
#include <cstdio>

#include "bench/thesis_reproduction.h"
#include "bench/thesis_reproduction_scenes.h"
#include "forward/integrators/simulator.h"
#include "observations/camera_rig.h"
#include "observations/grid_sdf_point_loss.h"
#include "observations/render_capture.h"
#include "optim/fit_problem.h"
#include "scene/scene_builder.h"
#include "scene/scene_loader.h"

namespace softfit::thesis {

namespace {

struct PointFit {
  VecX p;
  int iterations = 0, evaluations = 0, cells = 0;
  long long points = 0;
  double initialCost = 0.0, cost = 0.0;
  std::string stop;
};

PointFit fitFromCameras(const nlohmann::json& sceneJson, int cameraCount, int pixels, double sigmaCells,
                        const VecX& start, int maxIterations, bool verbose) {
  const SceneDescription description = parseScene(sceneJson, "thesis-scene", ".");
  BuiltScene scene = buildScene(description);
  PhysicalModel& model = *scene.model;
  Simulator sim(model, makeIntegrator(description.integrator), description.dt);
  const std::vector<State> states = sim.run(scene.initial, description.steps, true).states;
  Vec3 lo = Vec3::Constant(1e300), hi = Vec3::Constant(-1e300);
  for (const State& s : states) {
    Vec3 a, b;
    boundingBox(s.x, a, b);
    lo = lo.cwiseMin(a);
    hi = hi.cwiseMax(b);
  }
  CameraRigOptions rig;
  rig.width = rig.height = pixels;
  const std::vector<Camera> cameras = camerasAroundBox(lo, hi, cameraCount, rig);
  const EmbeddedSurface surface = extractEmbeddedSurface(*scene.grid, SurfaceResolution::Samples);
  const double h = description.sdf->cellSize;
  Capture capture = renderCapture(states, surface, cameras, NoiseOptions{sigmaCells * h, 1, 1}, 1, description.dt);
  PointFit fit;
  fit.cells = scene.grid->cellCount();
  for (const CaptureFrame& f : capture.frames) fit.points += f.cloud.size();
  PointCloudLossOptions lossOptions;
  lossOptions.averageOverPoints = true;
  GridSdfPointLoss loss(std::move(capture), scene.grid, lossOptions);

  const std::vector<Parameter> kinds = parseParameterList("E,nu");
  FitSetup setup{trajectorySetup(description, scene), &loss, {}};
  FitProblem problem(setup, ParameterSpace(kinds, {}), defaultTransforms(kinds));
  OptimizerOptions optimizer;
  optimizer.kind = defaultOptimizer(loss);
  optimizer.maxIterations = maxIterations;
  optimizer.gradientTolerance = 1e-12;
  const OptimizationResult r =
      minimize(problem.objective(), problem.toInternal(start), optimizer, [&](const IterationRecord& it) {
        if (it.iteration == 0) fit.initialCost = it.cost;
        if (verbose) {
          const VecX q = problem.toPhysical(it.point);
          std::fprintf(stderr, "    it %d evals %d cost %.6e |g| %.3e E %.6g nu %.6g (%.1f s)\n", it.iteration,
                       it.evaluations, it.cost, it.gradientNorm, q[0], q[1], it.seconds);
        }
      });
  fit.p = problem.toPhysical(r.point);
  fit.iterations = r.iterations;
  fit.evaluations = r.evaluations;
  fit.cost = r.cost;
  fit.stop = r.stopReason;
  return fit;
}

}  // namespace

std::vector<Row> noiseRows(const RunOptions& options) {
  std::vector<Row> rows;
  const double cell = options.quick ? 0.1 : 0.05;
  nlohmann::json scene = barScene(cell);
  if (options.quick) scene["time"]["steps"] = 10;
  VecX start(2);
  start << 2500.0, 0.35;
  const std::vector<double> sigmas = options.quick ? std::vector<double>{0.5} : std::vector<double>{0.5, 5.0, 25.0};
  for (const double sigma : sigmas) {
    const RowTimer timer;
    const PointFit fit = fitFromCameras(scene, 9, options.quick ? 32 : 100, sigma, start, options.quick ? 3 : 40,
                                        options.verbose);
    const double worst = std::max(std::abs(fit.p[0] / 2000.0 - 1.0), std::abs(fit.p[1] / 0.3 - 1.0));
    Row row;
    row.experiment = format("Fig. 5.8 noise %g voxels: E, nu from points", sigma);
    row.setup = format("Fig. 5.4 bar (%d cells), 9 cameras %dx%d, %lld points; start 2500/0.35 (2000/0.3)",
                       fit.cells, options.quick ? 32 : 100, options.quick ? 32 : 100, fit.points);
    row.thesisResult = "gradient plots only (no fit): gradients unchanged at 0.5 voxels, point to stiffer at 25";
    row.softfitResult = format("%.6g / %.5g after %d iterations, %d evaluations (%s)", fit.p[0], fit.p[1],
                               fit.iterations, fit.evaluations, fit.stop.c_str());
    row.error = percent(fit.p[0], 2000.0) + " / " + percent(fit.p[1], 0.3);
    if (sigma > 5.0)
      row.verdict = worst <= 0.05 ? "within 5% (reported only)" : "reported only (noise 25 voxels = 5x the bar's thickness)";
    else
      row.verdict = worst <= 0.05 ? "ahead: E and nu within 5%" : "behind: not within 5% (noise biases the point cost)";
    timer.finish(row);
    rows.push_back(row);
  }
  return rows;
}

std::vector<Row> torusRows(const RunOptions& options) {
  const RowTimer timer;
  nlohmann::json scene = torusScene(options.quick ? 0.1 : 0.041);
  if (options.quick) scene["time"]["steps"] = 5;
  VecX start(2);
  start << 2200.0, 0.32;
  const PointFit fit = fitFromCameras(scene, 10, options.quick ? 32 : 100, 0.0, start, options.quick ? 2 : 30,
                                      options.verbose);
  const double worst = std::max(std::abs(fit.p[0] / 2000.0 - 1.0), std::abs(fit.p[1] / 0.3 - 1.0));
  Row row;
  row.experiment = "Fig. 5.9/5.10 swinging torus, E and nu (noise-free)";
  row.setup = format("torus fixed at the top, %d cells, %d steps, 10 cameras %dx%d, %lld points, L-BFGS; start "
                     "2200/0.32 (2000/0.30)",
                     fit.cells, options.quick ? 5 : 30, options.quick ? 32 : 100, options.quick ? 32 : 100,
                     fit.points);
  row.thesisResult = "1882 / 0.2568 after 19 steps (cost 1.088 -> 0.2495)";
  row.softfitResult = format("%.6g / %.5g after %d iterations, %d evaluations (%s)", fit.p[0], fit.p[1],
                             fit.iterations, fit.evaluations, fit.stop.c_str());
  row.error = percent(fit.p[0], 2000.0) + " / " + percent(fit.p[1], 0.3);
  row.verdict = worst <= 0.01 ? "ahead: within 1%" : "behind: not within 1%";
  timer.finish(row);
  return {row};
}

}  // namespace softfit::thesis
