// Same input, same output bits: two runs of a scene with contact, corotation and
// damping give bit-identical trajectories.
#include <gtest/gtest.h>

#include <cstring>

#include "scene/scene_builder.h"
#include "scene/scene_loader.h"

namespace softfit {
namespace {

std::vector<State> runScene(IntegratorType type, MaterialModel material) {
  SceneDescription scene = loadScene(std::string(SOFTFIT_SOURCE_DIR) + "/data/scenes/bunny_drop.json");
  scene.steps = 25;
  scene.integrator.type = type;
  scene.material.model = material;
  BuiltScene built = buildScene(scene);
  Simulator sim(*built.model, makeIntegrator(scene.integrator), scene.dt);
  return sim.run(built.initial, scene.steps, true).states;
}

bool bitIdentical(const VecX& a, const VecX& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), sizeof(double) * a.size()) == 0;
}

TEST(Determinism, RepeatedRunsAreBitIdentical) {
  for (auto [type, material] : {std::pair{IntegratorType::BackwardEuler, MaterialModel::StableNeoHookean},
                                std::pair{IntegratorType::NewmarkTheta, MaterialModel::WarpedCorotated}}) {
    const auto a = runScene(type, material);
    const auto b = runScene(type, material);
    ASSERT_EQ(a.size(), b.size());
    for (size_t k = 0; k < a.size(); ++k) {
      ASSERT_TRUE(bitIdentical(a[k].x, b[k].x)) << integratorTypeName(type) << " step " << k;
      ASSERT_TRUE(bitIdentical(a[k].v, b[k].v)) << integratorTypeName(type) << " step " << k;
    }
    EXPECT_GT((a.back().x - a.front().x).norm(), 1e-3);  // it moved
  }
}

}  // namespace
}  // namespace softfit
