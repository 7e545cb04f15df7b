#include "forward/schemes/momentum_damping.h"

#include <gtest/gtest.h>

#include "forward/schemes/energy_spinning_cube.h"

namespace softfit {
namespace {

TEST(MomentumPreservingDamping, KeepsMomentaAndRemovesNonRigidEnergy) {
  testing::SpinningCube cube(2, MaterialModel::StableNeoHookean, 1e5, 3.0, 1.0);
  const VecX& m = cube.model->mass();
  VecX x = cube.initial.x + 0.05 * VecX::LinSpaced(cube.initial.x.size(), -1.0, 1.0).array().sin().matrix();
  VecX v = cube.initial.v;
  for (int i = 0; i < v.size(); i += 3) v.segment<3>(i) += Vec3(0.4, -0.1, 0.2);  // drift
  const Vec3 p0 = linearMomentum(m, v), l0 = angularMomentum(m, x, v);
  const double ke0 = cube.model->kineticEnergy(v);
  VecX damped = v;
  applyMomentumPreservingDamping(m, x, 0.3, damped);
  EXPECT_LT((linearMomentum(m, damped) - p0).norm(), 1e-12 * p0.norm());
  EXPECT_LT((angularMomentum(m, x, damped) - l0).norm(), 1e-12 * l0.norm());
  const double ke1 = cube.model->kineticEnergy(damped);
  EXPECT_LT(ke1, ke0 - 1e-3 * ke0);

  // k = 1 leaves the rigid motion, which further damping does not change.
  VecX rigid = v;
  applyMomentumPreservingDamping(m, x, 1.0, rigid);
  VecX again = rigid;
  applyMomentumPreservingDamping(m, x, 0.7, again);
  EXPECT_LT((again - rigid).norm(), 1e-12 * rigid.norm());
  EXPECT_LT(cube.model->kineticEnergy(rigid), ke1);
  // The non-rigid part decays linearly in k: v_k - v_rigid = (1 - k)(v - v_rigid).
  EXPECT_LT(((damped - rigid) - 0.7 * (v - rigid)).norm(), 1e-12 * v.norm());
  EXPECT_THROW(applyMomentumPreservingDamping(m, x, 1.5, damped), std::invalid_argument);
}

TEST(MomentumPreservingDamping, RigidMotionIsRecovered) {
  testing::SpinningCube cube(2, MaterialModel::StableNeoHookean, 1e5, 0.0, 0.0);
  const Vec3 velocity(0.1, -0.2, 0.3), omega(1.0, -2.0, 0.5);
  VecX v(cube.initial.x.size());
  for (int i = 0; i < v.size(); i += 3) v.segment<3>(i) = velocity + omega.cross(cube.initial.x.segment<3>(i));
  const RigidMotion rigid = rigidMotionOf(cube.model->mass(), cube.initial.x, v);
  EXPECT_LT((rigid.velocity - velocity - omega.cross(rigid.centerOfMass)).norm(), 1e-12);
  EXPECT_LT((rigid.angularVelocity - omega).norm(), 1e-12);
}

}  // namespace
}  // namespace softfit
