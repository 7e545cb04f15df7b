// Tables B.5 / B.6: the thesis cuboid (same scene as grid_cuboid_bench: warped
// corotation, E 5e4, nu 0.3, density 100, alpha (0.1, 0.001), Newmark theta 0.6, dt 0.01,
// gravity -10, 30 steps; Dirichlet: nodes with y < 0.65 fixed; collision: ground y = 0,
// k 1e4, alpha 100, dropped at 3 m/s) built from a scene JSON as `softfit simulate`
// would, timed per step (all 30 steps, the first included) in process CPU time and wall
// time (on a shared machine run it with OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1
// OMP_WAIT_POLICY=passive: waiting threads spinning for a core otherwise inflate the CPU
// time many times over). The thesis' per-step grid time is assembly + collision forces + CG (GTX 1060):
// Table B.5 for the Dirichlet case, Table B.6 for the collision case.
#include <chrono>
#include <map>
#include <nlohmann/json.hpp>

#include "bench/thesis_reproduction.h"
#include "forward/integrators/simulator.h"
#include "scene/scene_builder.h"
#include "scene/scene_loader.h"

namespace softfit::thesis {

namespace {

const std::map<int, double> kDirichletMs = {{5, 9.659}, {10, 29.876}, {15, 106.638}, {20, 292.009}};  // B.5
const std::map<int, double> kCollisionMs = {{5, 8.832}, {10, 21.862}, {15, 73.848}, {20, 146.589}};   // B.6

nlohmann::json cuboidScene(int r, bool collision) {
  nlohmann::json j = nlohmann::json::parse(R"({
    "sdf": {"type": "box", "center": [0, 1, 0], "half_extents": [1.29, 0.4, 0.8]},
    "material": {"model": "warped_corotated", "youngs_modulus": 5e4, "poisson_ratio": 0.3, "density": 100},
    "gravity": [0, -10, 0],
    "damping": {"alpha1": 0.1, "alpha2": 0.001},
    "integrator": {"type": "newmark_theta", "theta": 0.6},
    "time": {"dt": 0.01, "steps": 30}
  })");
  j["sdf"]["cell_size"] = 1.0 / r;
  if (collision) {
    // The thesis' 1e4 per lattice node; the scene's stiffness is per unit area, and a
    // bottom-face node stands for h^2 = 1 / r^2.
    j["ground"] = {{"normal", {0, 1, 0}}, {"offset", 0.0}, {"stiffness", 1e4 * r * r}, {"sharpness", 100}};
    j["initial"] = {{"velocity", {0, -3, 0}}};
  } else {
    j["dirichlet"] = {{{"box", {{"min", {-2, -1, -2}}, {"max", {2, 0.65, 2}}}}}};
  }
  return j;
}

}  // namespace

std::vector<Row> cuboidTimingRows(const RunOptions& options) {
  std::vector<Row> rows;
  const std::vector<int> resolutions = options.quick ? std::vector<int>{5} : std::vector<int>{5, 10, 15, 20};
  for (const bool collision : {false, true}) {
    const RowTimer timer;
    std::string ours, thesis, ratios;
    bool faster = true;
    for (int r : resolutions) {
      const SceneDescription description = parseScene(cuboidScene(r, collision), "thesis-cuboid", ".");
      BuiltScene scene = buildScene(description);
      Simulator sim(*scene.model, makeIntegrator(description.integrator), description.dt);
      const double cpu0 = processCpuSeconds();
      const auto wall0 = std::chrono::steady_clock::now();
      sim.run(scene.initial, description.steps, false);
      const double cpuMs = 1e3 * (processCpuSeconds() - cpu0) / description.steps;
      const double wallMs =
          1e3 * std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count() / description.steps;
      const double reference = (collision ? kCollisionMs : kDirichletMs).at(r);
      ours += format("%s%.3g (%.3g)", ours.empty() ? "" : " / ", cpuMs, wallMs);
      thesis += format("%s%.3g", thesis.empty() ? "" : " / ", reference);
      ratios += format("%s%.2fx", ratios.empty() ? "" : " / ", cpuMs / reference);
      faster &= cpuMs < reference;
    }
    std::string rs;
    for (int r : resolutions) rs += format("%s%d", rs.empty() ? "" : "/", r);
    Row row;
    row.experiment = collision ? "Table B.6, ground-collision cuboid: ms per step" : "Table B.5, Dirichlet cuboid: ms per step";
    row.setup = "r = " + rs + ", 30 steps, CG + assembly + collision forces, GTX 1060";
    row.thesisResult = thesis + " ms";
    row.softfitResult = ours + " ms per step, process CPU time (wall)";
    row.error = "CPU / thesis: " + ratios;
    row.verdict = faster ? "ahead at every r (CPU time)"
                         : "behind where the ratio is > 1 (CPU time of all threads vs the thesis' GPU time)";
    timer.finish(row);
    rows.push_back(row);
  }
  return rows;
}

}  // namespace softfit::thesis
