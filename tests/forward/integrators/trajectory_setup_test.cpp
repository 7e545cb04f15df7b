// One trajectory as a value: validation names what is wrong, and simulate() runs the
// same steps as a Simulator built by hand.
#include "forward/integrators/trajectory_setup.h"

#include <gtest/gtest.h>

#include "forward/errors.h"
#include "forward/mesh/procedural_box.h"
#include "support/box_model.h"
#include "forward/registry/simulate.h"

namespace softfit {
namespace {

TrajectorySetup droppedBox(std::unique_ptr<PhysicalModel>& model) {
  const TetMesh mesh = makeBoxMesh(Vec3::Zero(), Vec3::Ones(), 1, 1, 1);
  model = testing::makeBoxModel(mesh, MaterialModel::Corotated, 1e4, 0.3, 100);
  model->gravity = Vec3(0, -9.81, 0);
  TrajectorySetup setup;
  setup.model = model.get();
  setup.integrator.type = IntegratorType::BackwardEuler;
  setup.dt = 0.01;
  setup.steps = 5;
  setup.initial = restState(*model);
  return setup;
}

std::string messageOf(const TrajectorySetup& setup) {
  try {
    setup.validate("scene.json");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(TrajectorySetup, ValidationNamesTheField) {
  std::unique_ptr<PhysicalModel> model;
  TrajectorySetup setup = droppedBox(model);
  EXPECT_EQ(messageOf(setup), "");
  TrajectorySetup bad = setup;
  bad.dt = 0.0;
  EXPECT_NE(messageOf(bad).find("time.dt"), std::string::npos);
  bad = setup;
  bad.dt = std::numeric_limits<double>::infinity();
  EXPECT_NE(messageOf(bad).find("time.dt"), std::string::npos);
  bad = setup;
  bad.steps = -1;
  EXPECT_NE(messageOf(bad).find("time.steps"), std::string::npos);
  bad = setup;
  bad.initial.v.resize(3);
  EXPECT_NE(messageOf(bad).find("initial state"), std::string::npos);
  bad = setup;
  bad.model = nullptr;
  EXPECT_NE(messageOf(bad).find("no model"), std::string::npos);
  EXPECT_EQ(messageOf(bad).rfind("scene.json", 0), 0u);
}

TEST(TrajectorySetup, SimulateEqualsAHandBuiltSimulator) {
  std::unique_ptr<PhysicalModel> model;
  const TrajectorySetup setup = droppedBox(model);
  const Trajectory a = simulate(setup, true);
  Simulator simulator(*model, makeIntegrator(setup.integrator), setup.dt);
  const Trajectory b = simulator.run(setup.initial, setup.steps, true);
  ASSERT_EQ(a.states.size(), 6u);
  ASSERT_EQ(b.states.size(), 6u);
  for (size_t k = 0; k < a.states.size(); ++k) {
    EXPECT_EQ(a.states[k].x, b.states[k].x);
    EXPECT_EQ(a.states[k].v, b.states[k].v);
  }
  EXPECT_LT(a.states.back().x[1], setup.initial.x[1]);  // it falls
}

}  // namespace
}  // namespace softfit
