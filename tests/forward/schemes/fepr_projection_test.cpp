#include "forward/registry/integrator_registry.h"
#include "forward/schemes/fepr_projection.h"

#include <gtest/gtest.h>

#include "forward/errors.h"
#include "forward/integrators/simulator.h"
#include "forward/schemes/energy_spinning_cube.h"
#include "forward/schemes/momentum_damping.h"
#include "support/finite_difference.h"

namespace softfit {
namespace {

// Backward Euler loses energy on the spinning cube; FEPR restores energy and both
// momenta to 1e-7 (|c|_1) with a small correction.
TEST(FeprProjection, RestoresEnergyAndMomentaAfterBackwardEuler) {
  testing::SpinningCube cube(2, MaterialModel::StableNeoHookean, 2e4, 2.0);
  PhysicalModel& model = *cube.model;
  const FeprTarget target = conservedQuantities(model, cube.initial);
  IntegratorSettings settings;
  settings.type = IntegratorType::BackwardEuler;
  auto be = makeIntegrator(settings);
  State current = cube.initial;
  for (int step = 0; step < 20; ++step) {
    State next = be->step(model, current, nullptr, 0.02);
    const State raw = next;
    const FeprResult r = feprProject(model, target, current, 0.02, next);
    ASSERT_TRUE(r.converged) << "step " << step << " residual " << r.residual;
    const VecX c = feprConstraints(model, target, next, FeprConstraints::EnergyAndMomentum);
    EXPECT_LT(c.lpNorm<1>(), 1e-7);
    EXPECT_LT(std::abs(c[0]), 1e-7);
    EXPECT_LT(c.segment<3>(1).norm(), 1e-7);
    EXPECT_LT(c.segment<3>(4).norm(), 1e-7);
    EXPECT_LE(r.iterations, 10);
    // The correction is small compared with the motion of the step.
    EXPECT_LT((next.x - raw.x).norm(), 0.2 * (raw.x - current.x).norm());
    if (step == 0) {
      // BE really lost energy, so the projection had work to do.
      EXPECT_GT(target.energy - (model.kineticEnergy(raw.v) + model.potentialEnergy(raw.x)), 1e-4 * target.energy);
    }
    current = next;
  }
}

TEST(FeprProjection, ConstraintJacobianMatchesFiniteDifferences) {
  testing::SpinningCube cube(1, MaterialModel::StableNeoHookean, 1e4, 1.5);
  PhysicalModel& model = *cube.model;
  State s = cube.initial;
  s.x += 0.03 * VecX::LinSpaced(s.x.size(), 0.0, 7.0).array().sin().matrix();
  const FeprTarget target = conservedQuantities(model, cube.initial);
  MatX Jq, Jv;
  feprConstraintJacobian(model, s, FeprConstraints::EnergyAndMomentum, Jq, Jv);
  auto cq = [&](const VecX& x) {
    State t = s;
    t.x = x;
    return feprConstraints(model, target, t, FeprConstraints::EnergyAndMomentum);
  };
  auto cv = [&](const VecX& v) {
    State t = s;
    t.v = v;
    return feprConstraints(model, target, t, FeprConstraints::EnergyAndMomentum);
  };
  EXPECT_LT(testing::relativeError(Jq, testing::centralJacobian(cq, s.x, 1e-6)), 1e-7);
  EXPECT_LT(testing::relativeError(Jv, testing::centralJacobian(cv, s.v, 1e-6)), 1e-8);
}

TEST(FeprProjection, WithoutSlackIsCloserThanAFeasibleRescaling) {
  testing::SpinningCube cube(1, MaterialModel::StableNeoHookean, 1e4, 1.5);
  PhysicalModel& model = *cube.model;
  State perturbed = cube.initial;
  perturbed.v *= 0.97;  // energy lost, momenta scaled
  const FeprTarget target = conservedQuantities(model, cube.initial);
  FeprOptions options;
  options.slackWeight = 0.0;
  State projected = perturbed;
  const FeprResult r = feprProject(model, target, cube.initial, 0.01, projected, options);
  ASSERT_TRUE(r.converged);
  EXPECT_LT(r.residual, 1e-7);
  // The initial state is feasible; the projection must be at least as close in the metric.
  const double h2 = 1e-4;
  auto dist = [&](const State& t) {
    const VecX dq = t.x - perturbed.x, dv = t.v - perturbed.v;
    return dq.dot(model.mass().cwiseProduct(dq)) + h2 * dv.dot(model.mass().cwiseProduct(dv));
  };
  EXPECT_LE(dist(projected), dist(cube.initial) * (1.0 + 1e-6));
}

TEST(FeprProjection, EnergyOnlyWithDirichletNodesKeepsThemFixed) {
  testing::SpinningCube cube(2, MaterialModel::StableNeoHookean, 2e4, 1.0);
  PhysicalModel& model = *cube.model;
  testing::clampNodesBelowX(model, cube.mesh, -0.5 + 1e-9);
  State start = restState(model);
  for (int i = 0; i < start.v.size(); ++i)
    if (!model.fixedDofs()[i]) start.v[i] = cube.initial.v[i];
  FeprTarget target = conservedQuantities(model, start);
  State s = start;
  s.v *= 0.9;
  model.dirichlet.applyVelocities(0.0, s.v);
  FeprOptions options;
  EXPECT_THROW(feprProject(model, target, start, 0.01, s, options), InputError);
  options.constraints = FeprConstraints::Energy;
  const FeprResult r = feprProject(model, target, start, 0.01, s, options);
  ASSERT_TRUE(r.converged);
  EXPECT_LT(std::abs(model.kineticEnergy(s.v) + model.potentialEnergy(s.x) - target.energy), 1e-7);
  for (int i = 0; i < s.x.size(); ++i)
    if (model.fixedDofs()[i]) {
      EXPECT_EQ(s.x[i], start.x[i]);
      EXPECT_EQ(s.v[i], 0.0);
    }
}

}  // namespace
}  // namespace softfit
