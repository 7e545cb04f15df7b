// The initial rigid motion v_i = v0 + w x (X_i - c) on free nodes and its reverse step.
#include <gtest/gtest.h>

#include "forward/integrators/initial_motion.h"
#include "forward/mesh/procedural_box.h"
#include "support/box_model.h"

namespace softfit {
namespace {

TEST(InitialMotion, RigidVelocityOnFreeNodesAndItsAdjoint) {
  const TetMesh mesh = makeBoxMesh(Vec3::Zero(), Vec3(1.0, 0.5, 0.5), 2, 1, 1);
  auto model = testing::makeBoxModel(mesh, MaterialModel::Corotated, 1e4, 0.3, 100);
  testing::clampNodesBelowX(*model, mesh, 1e-9);
  const InitialMotion motion{Vec3(0.5, -1.0, 0.2), Vec3(0.3, 2.0, -1.0), restCenterOfMass(*model)};
  EXPECT_LT((motion.center - Vec3(0.5, 0.25, 0.25)).norm(), 1e-12);  // the box's centre of mass

  VecX v = VecX::Constant(model->dofCount(), 7.0);
  applyInitialMotion(*model, motion, v);
  const DofMask fixed = model->fixedDofs();
  for (int i = 0; i < model->nodeCount(); ++i) {
    const Vec3 X = model->restPositions().segment<3>(3 * i);
    const Vec3 expected = fixed[3 * i] ? Vec3::Constant(7.0) : Vec3(motion.velocity + motion.angularVelocity.cross(X - motion.center));
    EXPECT_LT((v.segment<3>(3 * i) - expected).norm(), 1e-14) << "node " << i;
  }

  // <vBar, v(v0, w)> is linear in (v0, w): its gradient is the adjoint, exactly.
  VecX vBar(model->dofCount());
  for (int i = 0; i < vBar.size(); ++i) vBar[i] = std::sin(0.7 * i + 0.2);
  Vec3 velocityBar = Vec3::Zero(), angularBar = Vec3::Zero();
  addInitialMotionAdjoint(*model, motion, vBar, velocityBar, angularBar);
  const auto pairing = [&](const InitialMotion& m) {
    VecX w = VecX::Zero(model->dofCount());
    applyInitialMotion(*model, m, w);
    return vBar.dot(w);
  };
  for (int c = 0; c < 3; ++c) {
    InitialMotion dv = motion, dw = motion;
    dv.velocity[c] += 1.0;
    dw.angularVelocity[c] += 1.0;
    EXPECT_NEAR(pairing(dv) - pairing(motion), velocityBar[c], 1e-12);
    EXPECT_NEAR(pairing(dw) - pairing(motion), angularBar[c], 1e-12);
  }
}

}  // namespace
}  // namespace softfit
