#include "bench/thesis_reproduction_scenes.h"

#include <cmath>

namespace softfit::thesis {

nlohmann::json barScene(double cell) {
  nlohmann::json j = nlohmann::json::parse(R"({
    "sdf": {"type": "box", "center": [0, 1, 0], "half_extents": [0.5, 0.1, 0.1]},
    "material": {"model": "warped_corotated", "youngs_modulus": 2000, "poisson_ratio": 0.3, "density": 1},
    "gravity": [0, -10, 0],
    "damping": {"alpha1": 0.1, "alpha2": 0.01},
    "dirichlet": [{"box": {"min": [-1, 0, -1], "max": [-0.49, 2, 1]}}],
    "integrator": {"type": "newmark_theta", "theta": 0.6},
    "time": {"dt": 0.01, "steps": 40}
  })");
  j["sdf"]["cell_size"] = cell;
  return j;
}

nlohmann::json torusScene(double cell) {
  nlohmann::json j = nlohmann::json::parse(R"({
    "sdf": {"type": "torus", "center": [0, 1, 0], "axis": [0, 0, 1], "major_radius": 0.5, "minor_radius": 0.2},
    "material": {"model": "warped_corotated", "youngs_modulus": 2000, "poisson_ratio": 0.3, "density": 10},
    "gravity": [0, -10, 0],
    "damping": {"alpha1": 0.1, "alpha2": 0.01},
    "dirichlet": [{"box": {"min": [-1, 1.62, -1], "max": [1, 2, 1]}}],
    "initial": {"velocity": [1, 0, 0.5]},
    "integrator": {"type": "newmark_theta", "theta": 0.6},
    "time": {"dt": 0.01, "steps": 30}
  })");
  j["sdf"]["cell_size"] = cell;
  return j;
}

}  // namespace softfit::thesis

namespace softfit::thesis {

Vec3 planeNormal(double theta, double phi) {
  return Vec3(std::sin(theta) * std::cos(phi), std::sin(theta) * std::sin(phi), std::cos(theta));
}

nlohmann::json collisionScene(double cell, double theta, double phi) {
  nlohmann::json j = barScene(cell);
  j.erase("dirichlet");
  j["sdf"]["center"] = {0, 0.3, 0};
  j["initial"]["velocity"] = {0, -1, 0};
  const Vec3 n = planeNormal(theta, phi);
  j["ground"] = {{"normal", {n.x(), n.y(), n.z()}}, {"offset", 0.0}, {"stiffness", 1e4}, {"sharpness", 100.0}};
  j["time"]["steps"] = 30;
  return j;
}

nlohmann::json bunnyScene(const std::string& surfaceDir, double cell, double theta, double phi, double offset) {
  nlohmann::json j = nlohmann::json::parse(R"({
    "sdf": {"type": "mesh", "sign": "winding_number", "scale": 4, "translate": [0, -0.0336, 0]},
    "material": {"model": "warped_corotated", "youngs_modulus": 5e4, "poisson_ratio": 0.3, "density": 100},
    "gravity": [0, -10, 0],
    "damping": {"alpha1": 0.1, "alpha2": 0.001},
    "ground": {"sharpness": 100},
    "initial": {"velocity": [0, -2, 0]},
    "integrator": {"type": "newmark_theta", "theta": 0.6},
    "time": {"dt": 0.01, "steps": 65}
  })");
  j["sdf"]["file"] = surfaceDir + "/bunny_res3.obj";
  j["sdf"]["cell_size"] = cell;
  const Vec3 n = planeNormal(theta, phi);
  j["ground"]["normal"] = {n.x(), n.y(), n.z()};
  j["ground"]["offset"] = offset;
  // The thesis' 1e4 per contact point, as a stiffness per unit area (one point per h^2).
  j["ground"]["stiffness"] = 1e4 / (cell * cell);
  return j;
}

nlohmann::json dragonScene(const std::string& surfaceDir, double cell) {
  nlohmann::json j = nlohmann::json::parse(R"({
    "sdf": {"type": "mesh", "sign": "winding_number", "scale": 5},
    "material": {"model": "warped_corotated", "youngs_modulus": 5000, "poisson_ratio": 0.3, "density": 50},
    "gravity": [0, -10, 0],
    "damping": {"alpha1": 0.1, "alpha2": 0.01},
    "dirichlet": [{"box": {"min": [-1, 0.625, -1], "max": [-0.35, 2, 1]}}],
    "integrator": {"type": "newmark_theta", "theta": 0.6},
    "time": {"dt": 0.01, "steps": 30}
  })");
  j["sdf"]["file"] = surfaceDir + "/dragon_res4.obj";
  j["sdf"]["cell_size"] = cell;
  return j;
}

}  // namespace softfit::thesis
