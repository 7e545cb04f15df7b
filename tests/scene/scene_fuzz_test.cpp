// Issue 25: seeded mutation fuzzing of scene JSON files (box and mesh scenes): every
// mutated scene is loaded and built, or refused with an InputError; never a crash, an
// unbounded allocation or another exception.
#include <gtest/gtest.h>

#include <filesystem>

#include "forward/mesh/temp_directory.h"
#include "scene/scene_builder.h"
#include "scene/scene_loader.h"
#include "support/mutation_fuzz.h"

namespace softfit {
namespace {

using testing::fuzzReader;

TEST(SceneFuzz, BoxAndMeshScenesLoadOrAreRefused) {
  TempDirectory dir;
  std::filesystem::copy_file(std::string(SOFTFIT_SOURCE_DIR) + "/data/meshes/cube12.mesh", dir.file("cube12.mesh"));
  const auto loadAndBuild = [](const std::string& path) { buildScene(loadScene(path)); };
  fuzzReader(R"({
  "box": {"min": [0, 0.2, 0], "max": [0.2, 0.4, 0.2], "cells": [2, 1, 1]},
  "material": {"model": "neo_hookean", "youngs_modulus": 1e4, "poisson_ratio": 0.3, "density": 100,
               "regions": [{"box": {"min": [0, 0, 0], "max": [0.1, 1, 1]}, "youngs_modulus": 2e4}]},
  "dirichlet": [{"nodes": [0, 1]}],
  "attachments": [{"nodes": [2], "stiffness": 100}],
  "integrator": {"type": "backward_euler", "max_iterations": 20},
  "time": {"dt": 0.01, "steps": 3},
  "output": {"every": 1}
})", dir.file("box.json"), 300, loadAndBuild);
  fuzzReader(R"({"mesh": {"file": "cube12.mesh", "scale": 0.5, "translate": [0, 1, 0]},
  "ground": {"normal": [0, 1, 0], "offset": 0}, "time": {"dt": 0.01, "steps": 2}})",
             dir.file("mesh.json"), 300, loadAndBuild);
}

}  // namespace
}  // namespace softfit
