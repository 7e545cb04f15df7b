#pragma once
// A small scene and its synthetic capture for the sweep and MPI tests (a 2x2x2-cell box
// bouncing for 10 steps, 24 x 24 depth cameras): a sweep point costs a few hundredths
// of a second.
#include <filesystem>
#include <fstream>
#include <string>

#include "support/run_command.h"

namespace softfit::testing {

struct SweepFixture {
  std::filesystem::path dir, scene, capture;
};

// Writes the scene and runs `softfit synth` into `dir` (the caller removes it). Returns
// an empty capture path when synth failed (the message in `log`).
inline SweepFixture makeSweepFixture(const std::filesystem::path& dir, std::string& log) {
  namespace fs = std::filesystem;
  fs::remove_all(dir);
  fs::create_directories(dir);
  SweepFixture f{dir, dir / "scene.json", dir / "capture"};
  std::ofstream(f.scene) << R"({
    "box": {"min": [-0.15, 0.05, -0.15], "max": [0.15, 0.35, 0.15], "cells": [2, 2, 2]},
    "material": {"model": "warped_corotated", "youngs_modulus": 3000, "poisson_ratio": 0.3, "density": 100},
    "gravity": [0, -10, 0],
    "damping": {"alpha1": 0.1, "alpha2": 0.01},
    "ground": {"normal": [0, 1, 0], "offset": 0},
    "initial": {"velocity": [0.2, -1.0, 0.0], "angular_velocity": [0, 0, 1]},
    "integrator": {"type": "newmark_theta", "theta": 0.6},
    "time": {"dt": 0.01, "steps": 10}
  })";
  const CommandResult synth = runSoftfit("synth " + f.scene.string() + " -o " + f.capture.string() + " --resolution 24");
  log = synth.output;
  if (synth.exitCode != 0) f.capture.clear();
  return f;
}

}  // namespace softfit::testing
