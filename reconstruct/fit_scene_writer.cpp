#include "reconstruct/fit_scene_writer.h"

#include <nlohmann/json.hpp>

#include "forward/io/text_output.h"

namespace softfit {

namespace {
nlohmann::json vec(const Vec3& v) { return nlohmann::json::array({v[0], v[1], v[2]}); }
}  // namespace

void writeFitScene(const std::string& path, const FitSceneSettings& s) {
  nlohmann::json scene = nlohmann::json::object();
  scene["name"] = s.name;
  // The closest-point cost fits the embedded surface: at the samples' resolution, not the
  // nodes' (the thesis level), which cuts a reconstructed shape's faces and edges, lying
  // anywhere in the cells, by up to a few millimetres (bench/README.md, raw captures).
  if (s.geometryKey == "sdf")
    scene["sdf"] = {{"type", "volume"}, {"file", s.geometryFile}, {"cell_size", s.cellSize}, {"surface", "samples"}};
  else
    scene["mesh"] = {{"file", s.geometryFile}};
  scene["material"] = {{"model", s.material},
                       {"youngs_modulus", s.youngsModulus},
                       {"poisson_ratio", s.poissonRatio},
                       {"density", s.density}};
  scene["gravity"] = vec(-9.81 * s.groundNormal);
  scene["damping"] = {{"alpha1", s.alpha1}, {"alpha2", s.alpha2}};
  scene["ground"] = {{"normal", vec(s.groundNormal)}, {"offset", s.groundOffset}};
  if (s.initialMotion)
    scene["initial"] = {{"velocity", vec(s.velocity)},
                        {"angular_velocity", vec(s.angularVelocity)},
                        {"center", vec(s.motionCenter)}};
  scene["integrator"] = {{"type", "newmark_theta"}, {"theta", 0.6}};
  scene["time"] = {{"dt", s.dt}, {"steps", s.steps}};
  scene["output"] = {{"every", s.outputEvery}};
  writeTextFile(path, scene.dump(2) + "\n");
}

}  // namespace softfit
