// Simulates a soft box dropped on the ground and takes the gradient of a motion loss with
// respect to the Lame parameters by one adjoint pass, through an installed softfit.
#include <cstdio>
#include <nlohmann/json.hpp>

#include "adjoint/motion_loss.h"
#include "adjoint/trajectory_gradient.h"
#include "forward/registry/simulate.h"
#include "scene/scene_builder.h"
#include "scene/scene_loader.h"

int main() {
  const nlohmann::json document = nlohmann::json::parse(R"({
    "box": {"min": [-0.1, 0.05, -0.1], "max": [0.1, 0.25, 0.1], "cells": [2, 2, 2]},
    "material": {"model": "corotated", "youngs_modulus": 5000, "poisson_ratio": 0.3, "density": 100},
    "gravity": [0, -9.81, 0],
    "ground": {"normal": [0, 1, 0], "offset": 0},
    "integrator": {"type": "backward_euler"},
    "time": {"dt": 0.01, "steps": 10}
  })");
  const softfit::SceneDescription description = softfit::parseScene(document, "<inline>", ".");
  softfit::BuiltScene scene = softfit::buildScene(description);
  const softfit::TrajectorySetup setup = softfit::trajectorySetup(description, scene);
  const softfit::Trajectory run = softfit::simulate(setup, false);
  softfit::MassWeightedMotionLoss loss(*scene.model);
  const softfit::TrajectoryGradient g = softfit::trajectoryGradient(setup, loss);
  std::printf("softfit consumer: %d nodes, %zu states kept, loss %.6e, |dL/dmu| %.6e, |dL/dlambda| %.6e\n",
              scene.model->nodeCount(), run.states.size(), g.loss, g.parameters.mu.norm(), g.parameters.lambda.norm());
  return g.loss > 0.0 && g.parameters.mu.allFinite() ? 0 : 1;
}
