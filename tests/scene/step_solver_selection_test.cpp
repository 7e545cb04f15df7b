// "integrator.solver" picks the step minimizer: L-BFGS and mixed FEM converged tightly
// reach Newton's trajectory; bad selections name the field.
#include "scene/step_solver_selection.h"

#include <gtest/gtest.h>

#include "forward/errors.h"
#include "forward/integrators/simulator.h"
#include "scene/scene_builder.h"
#include "scene/scene_loader.h"

namespace softfit {
namespace {

nlohmann::json bentBar(const nlohmann::json& solver) {
  nlohmann::json doc = nlohmann::json::parse(R"({
    "box": {"min": [0, 0, 0], "max": [1, 0.25, 0.25], "cells": [4, 1, 1]},
    "material": {"model": "stable_neo_hookean", "youngs_modulus": 1e4, "poisson_ratio": 0.3, "density": 100},
    "gravity": [0, -9.81, 0],
    "dirichlet": [{"box": {"min": [-1, -1, -1], "max": [0.01, 1, 1]}}],
    "integrator": {"type": "backward_euler", "tolerance": 1e-12},
    "time": {"dt": 0.02, "steps": 4}
  })");
  if (!solver.is_null()) doc["integrator"]["solver"] = solver;
  return doc;
}

VecX finalPositions(const nlohmann::json& doc) {
  const SceneDescription scene = parseScene(doc, "scene.json", ".");
  BuiltScene built = buildScene(scene);
  Simulator sim(*built.model, makeIntegrator(scene.integrator), scene.dt);
  return sim.run(built.initial, scene.steps, false).states.back().x;
}

TEST(StepSolverSelection, LbfgsAndMixedFemReachNewtonsTrajectory) {
  const VecX newton = finalPositions(bentBar(nullptr));
  const nlohmann::json lbfgs = {{"type", "lbfgs"}, {"max_iterations", 2000}, {"decrement_tolerance", 1e-14}};
  const nlohmann::json mfem = {{"type", "mfem"}, {"max_iterations", 200}};
  for (const auto& solver : {lbfgs, mfem}) {
    const VecX x = finalPositions(bentBar(solver));
    EXPECT_LT((x - newton).norm(), 1e-6 * newton.norm()) << solver.dump();
  }
}

TEST(StepSolverSelection, RejectsBadSelectionsNamingTheField) {
  const auto expectError = [](const nlohmann::json& doc, const char* fragment) {
    try {
      parseScene(doc, "scene.json", ".");
      FAIL() << doc.dump();
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
    }
  };
  expectError(bentBar({{"type", "gauss_seidel"}}), "integrator.solver.type");
  expectError(bentBar({{"type", "lbfgs"}, {"lbfgs_window", 0}}), "lbfgs_window");
  nlohmann::json newmark = bentBar({{"type", "lbfgs"}});
  newmark["integrator"]["type"] = "newmark_theta";
  expectError(newmark, "newmark_theta");
}

}  // namespace
}  // namespace softfit
