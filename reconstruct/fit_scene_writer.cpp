#include "reconstruct/fit_scene_writer.h"

#include <filesystem>
#include <nlohmann/json.hpp>

#include "forward/io/text_output.h"
#include "scene/scene_loader.h"

namespace softfit {

namespace {
nlohmann::json vec(const Vec3& v) { return nlohmann::json::array({v[0], v[1], v[2]}); }
}  // namespace

nlohmann::json fitSceneJson(const FitSceneSettings& s) {
  nlohmann::json scene = nlohmann::json::object();
  scene["name"] = s.name;
  // The closest-point cost fits the embedded surface, and the ground touches it. The
  // grid's own surfaces cut a reconstructed shape's faces and edges, lying anywhere in the
  // cells: the nodes' (the thesis level) by up to a few millimetres everywhere, the
  // samples' by 4-7 mm at sharp edges (bench/README.md, raw captures). The fused surface
  // itself, embedded in the grid, keeps them. The lattice edges' crossings would make the
  // floor's push depend on where the faces fall on the lattice.
  if (s.geometryKey == "sdf") {
    scene["sdf"] = {{"type", "volume"}, {"file", s.geometryFile}, {"cell_size", s.cellSize}};
    if (s.surfaceMeshFile.empty()) scene["sdf"]["surface"] = "samples";
    else scene["sdf"]["surface_mesh"] = s.surfaceMeshFile;
    scene["sdf"]["contact_points"] = "surface";
  } else {
    scene["mesh"] = {{"file", s.geometryFile}};
  }
  scene["material"] = {{"model", s.material},
                       {"youngs_modulus", s.youngsModulus},
                       {"poisson_ratio", s.poissonRatio},
                       {"density", s.density}};
  scene["gravity"] = vec(-kStandardGravity * s.groundNormal);
  scene["damping"] = {{"alpha1", s.alpha1}, {"alpha2", s.alpha2}};
  scene["ground"] = {{"normal", vec(s.groundNormal)}, {"offset", s.groundOffset}};
  if (s.initialMotion)
    scene["initial"] = {{"velocity", vec(s.velocity)},
                        {"angular_velocity", vec(s.angularVelocity)},
                        {"center", vec(s.motionCenter)}};
  scene["integrator"] = {{"type", "newmark_theta"}, {"theta", 0.6}};
  scene["time"] = {{"dt", s.dt}, {"steps", s.steps}};
  scene["output"] = {{"every", s.outputEvery}};
  return scene;
}

void checkFitScene(const FitSceneSettings& s, const std::string& path) {
  // What a reader sees: the written text parsed again (a NaN or inf is written as null).
  parseScene(nlohmann::json::parse(fitSceneJson(s).dump()), path, std::filesystem::path(path).parent_path().string());
}

void writeFitScene(const std::string& path, const FitSceneSettings& s) {
  checkFitScene(s, path);
  writeTextFile(path, fitSceneJson(s).dump(2) + "\n");
}

}  // namespace softfit
