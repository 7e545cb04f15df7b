#include "bench/thesis_reproduction_scenes.h"

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
