// What the builder decides is carried by the BuiltScene: each element's material region,
// E and nu, and the initial rigid motion with its rotation centre.
#include "scene/scene_builder.h"

#include <gtest/gtest.h>

#include "scene/scene_loader.h"

namespace softfit {
namespace {

TEST(SceneBuilder, CarriesRegionsMaterialsAndInitialMotion) {
  const nlohmann::json doc = nlohmann::json::parse(R"({
    "box": {"min": [0, 0, 0], "max": [2, 1, 1], "cells": [4, 1, 1]},
    "material": {"model": "corotated", "youngs_modulus": 1e4, "poisson_ratio": 0.3, "density": 100,
                 "regions": [{"box": {"min": [-1, -1, -1], "max": [1, 2, 2]}, "youngs_modulus": 3e4},
                             {"box": {"min": [1.5, -1, -1], "max": [3, 2, 2]}, "poisson_ratio": 0.4}]},
    "initial": {"velocity": [1, 0, 0], "angular_velocity": [0, 0, 2]},
    "time": {"dt": 0.01, "steps": 1}
  })");
  const BuiltScene scene = buildScene(parseScene(doc, "scene.json", "."));
  const PhysicalModel& model = *scene.model;
  const int m = static_cast<int>(model.density().size());
  ASSERT_EQ(static_cast<int>(scene.elementRegion.size()), m);
  int counts[3] = {0, 0, 0};
  for (int e = 0; e < m; ++e) {
    const int r = scene.elementRegion[e];
    ASSERT_TRUE(r >= 0 && r <= 2);
    ++counts[r];
    EXPECT_EQ(scene.youngs[e], r == 1 ? 3e4 : 1e4);
    EXPECT_EQ(scene.poisson[e], r == 2 ? 0.4 : 0.3);
    const LameParameters expected = lameFromYoungPoisson(scene.youngs[e], scene.poisson[e]);
    EXPECT_EQ(model.elastic().parameters()[e].mu, expected.mu);
  }
  EXPECT_EQ(counts[0], m / 4);  // cells 0-1 in region 1, cell 2 in none, cell 3 in region 2
  EXPECT_EQ(counts[1], m / 2);
  EXPECT_EQ(counts[2], m / 4);
  EXPECT_EQ(scene.motion.velocity, Vec3(1, 0, 0));
  EXPECT_EQ(scene.motion.angularVelocity, Vec3(0, 0, 2));
  EXPECT_LT((scene.motion.center - Vec3(1.0, 0.5, 0.5)).norm(), 1e-12);
  // The initial velocities are that motion.
  for (int i = 0; i < model.nodeCount(); ++i) {
    const Vec3 X = model.restPositions().segment<3>(3 * i);
    EXPECT_LT((scene.initial.v.segment<3>(3 * i) - (Vec3(1, 0, 0) + Vec3(0, 0, 2).cross(X - scene.motion.center))).norm(),
              1e-12);
  }
}

}  // namespace
}  // namespace softfit
