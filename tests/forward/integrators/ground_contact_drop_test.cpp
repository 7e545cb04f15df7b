// A body dropped on the ground plane bounces and comes to rest above it.
#include <gtest/gtest.h>

#include "forward/integrators/simulator.h"
#include "support/box_model.h"
#include "forward/registry/integrator_registry.h"

namespace softfit {
namespace {

struct DropResult {
  bool bounced = false;
  double maxPenetration = 0.0;
  double finalSpeed = 0.0;
  double finalHeight = 0.0;  // lowest node above the plane at the end
};

DropResult drop(MaterialModel material, IntegratorSettings settings, double alpha1) {
  const TetMesh mesh = makeBoxMesh(Vec3(-0.25, 0.3, -0.25), Vec3(0.25, 0.8, 0.25), 3, 3, 3);
  auto model = testing::makeBoxModel(mesh, material, 2e4, 0.3, 100.0);
  model->gravity = Vec3(0, -10, 0);
  model->damping.alpha1 = alpha1;
  std::vector<int> surface;
  for (int i = 0; i < mesh.vertexCount(); ++i) surface.push_back(i);
  model->ground = GroundContact(GroundPlane{Vec3(0, 1, 0), 0.0, 1e4, 100.0}, surface);
  Simulator sim(*model, makeIntegrator(settings), 0.005);
  DropResult r;
  bool touched = false;
  const Trajectory t = sim.run(restState(*model), 1200, false, [&](const StepReport& s) {
    const VecX& x = s.state->x;
    const double penetration = model->ground->maxPenetration(x);
    r.maxPenetration = std::max(r.maxPenetration, penetration);
    touched = touched || penetration > 0.0;
    double vy = 0.0;
    for (int i = 0; i < model->nodeCount(); ++i) vy += model->mass()[3 * i] * s.state->v[3 * i + 1];
    if (touched && vy > 0.0) r.bounced = true;
  });
  const State& last = t.states.back();
  r.finalSpeed = last.v.cwiseAbs().maxCoeff();
  r.finalHeight = -model->ground->maxPenetration(last.x);
  double lowest = 1e9;
  for (int i = 0; i < model->nodeCount(); ++i) lowest = std::min(lowest, last.x[3 * i + 1]);
  r.finalHeight = lowest;
  return r;
}

// Resting on 16 bottom nodes the body (mass 12.5, weight 125) needs about 8 N per node.
// The softmin spring (k = 1e4, alpha = 100) gives that slightly *above* the plane (its
// exponential tail, -k exp(-alpha d) / alpha), so the body settles about 2 cm up. No
// node may ever go deeper than 3 mm (0.6% of the body size), and at rest the body is
// within kRestBand of the plane.
constexpr double kPenetrationTolerance = 3e-3;
constexpr double kRestBand = 0.05;

TEST(GroundDrop, ThesisNewmarkWithWarpedCorotationBouncesAndRests) {
  IntegratorSettings settings;
  settings.type = IntegratorType::NewmarkTheta;
  settings.theta = 0.6;
  const DropResult r = drop(MaterialModel::WarpedCorotated, settings, 2.0);
  EXPECT_TRUE(r.bounced);
  EXPECT_LT(r.finalSpeed, 1e-2);
  EXPECT_GT(r.finalHeight, -kPenetrationTolerance);
  EXPECT_LT(r.maxPenetration, kPenetrationTolerance);
  EXPECT_LT(r.finalHeight, kRestBand);  // it did come down (dropped from 0.3)
}

TEST(GroundDrop, BackwardEulerStableNeoHookeanBouncesAndRests) {
  IntegratorSettings settings;
  settings.type = IntegratorType::BackwardEuler;
  const DropResult r = drop(MaterialModel::StableNeoHookean, settings, 1.0);
  EXPECT_TRUE(r.bounced);
  EXPECT_LT(r.finalSpeed, 1e-2);
  EXPECT_GT(r.finalHeight, -kPenetrationTolerance);
  EXPECT_LT(r.maxPenetration, kPenetrationTolerance);
  EXPECT_LT(r.finalHeight, kRestBand);
}

}  // namespace
}  // namespace softfit
