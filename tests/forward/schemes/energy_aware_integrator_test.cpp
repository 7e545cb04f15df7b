#include "forward/schemes/energy_aware_integrator.h"

#include <gtest/gtest.h>

#include "forward/integrators/incremental_potential_integrator.h"
#include "forward/schemes/energy_spinning_cube.h"
#include "forward/schemes/energy_theta_scheme.h"
#include "forward/schemes/momentum_damping.h"
#include "support/finite_difference.h"

namespace softfit {
namespace {

double totalEnergy(const PhysicalModel& model, const State& s) {
  return model.kineticEnergy(s.v) + model.potentialEnergy(s.x);
}

// The theta scheme at theta = 1/2 and 1 reproduces IM and BE of the existing integrator.
TEST(ThetaScheme, EndpointsAreImplicitMidpointAndBackwardEuler) {
  testing::SpinningCube cube(1, MaterialModel::StableNeoHookean, 1e4, 2.0);
  for (auto [type, theta] : {std::pair{IntegratorType::ImplicitMidpoint, 0.5},
                             std::pair{IntegratorType::BackwardEuler, 1.0}}) {
    IntegratorSettings s;
    s.type = type;
    IncrementalPotentialIntegrator reference(s);
    const State expected = reference.step(*cube.model, cube.initial, nullptr, 0.02);
    const IncrementalPotentialCoefficients c = thetaSchemeCoefficients(cube.initial, theta, 0.02);
    const SparseMatrix noDamping;
    StepObjective objective(*cube.model, c, noDamping, 0.02, {EigenvalueFilter::Clamp, 0.0});
    VecX x = c.y;
    NewtonOptions o;
    o.stepTolerance = 1e-12;
    NewtonSolver newton(o);
    ASSERT_TRUE(newton.minimize(objective, x, cube.model->fixedDofs()).converged);
    EXPECT_LT((x - expected.x).norm(), 1e-9 * (expected.x - cube.initial.x).norm());
    const VecX v = thetaSchemeVelocity(x, cube.initial, theta, 0.02);
    EXPECT_LT((v - expected.v).norm(), 1e-8 * expected.v.norm());
  }
}

TEST(ThetaScheme, ObjectiveGradientMatchesFiniteDifferences) {
  testing::SpinningCube cube(1, MaterialModel::StableNeoHookean, 1e4, 2.0);
  cube.model->damping = {0.1, 0.01};
  SparseMatrix D = cube.model->pattern().zeroMatrix();
  cube.model->assembleDamping(cube.initial.x, D);
  const IncrementalPotentialCoefficients c = thetaSchemeCoefficients(cube.initial, 0.7, 0.02);
  StepObjective objective(*cube.model, c, D, 0.02, {EigenvalueFilter::None, 0.0});
  VecX x = c.y + 0.01 * VecX::LinSpaced(c.y.size(), -1.0, 1.0);
  VecX g;
  objective.gradient(x, g);
  auto f = [&](const VecX& y) { return objective.value(y); };
  EXPECT_LT(testing::relativeError(g, testing::centralGradient(f, x, 1e-6)), 1e-7);
  SparseMatrix H = objective.hessianPattern();
  objective.hessian(x, H, HessianKind::Exact);
  auto grad = [&](const VecX& y) -> VecX {
    VecX out;
    objective.gradient(y, out);
    return out;
  };
  EXPECT_LT(testing::relativeError(MatX(H), testing::centralJacobian(grad, x, 1e-6)), 1e-7);
}

// On a fast spinning stiff cube with a large step, implicit midpoint's energy explodes
// (H > 2 H0 within 20 steps) while the blended stabilizer keeps H within eps = 1% of the
// ledger's target on every step. (The 2000-step run is bench/energy_spinning_cube_bench.)
TEST(EnergyAwareIntegrator, KeepsEnergyInBandWhereImplicitMidpointExplodes) {
  testing::SpinningCube cube(2, MaterialModel::StableNeoHookean, 1e6, 10.0);
  PhysicalModel& model = *cube.model;
  const double dt = 0.05;
  const double h0 = totalEnergy(model, cube.initial);
  {
    IntegratorSettings s;
    s.type = IntegratorType::ImplicitMidpoint;
    IncrementalPotentialIntegrator im(s);
    State current = cube.initial;
    double worst = 0.0;
    for (int step = 0; step < 20; ++step) {
      current = im.step(model, current, nullptr, dt);
      worst = std::max(worst, totalEnergy(model, current) / h0);
    }
    EXPECT_GT(worst, 2.0);
  }
  EnergyAwareIntegrator aware(EnergyAwareSettings{});
  State current = cube.initial;
  int blended = 0, towardsForward = 0;
  for (int step = 0; step < 60; ++step) {
    current = aware.step(model, current, nullptr, dt);
    ASSERT_TRUE(aware.lastInfo().inBand) << "step " << step;
    EXPECT_LE(std::abs(totalEnergy(model, current) - h0), 0.01 * h0) << "step " << step;
    blended += aware.lastInfo().blend > 0.0 ? 1 : 0;
    towardsForward += aware.lastInfo().blend < 0.0 ? 1 : 0;
  }
  EXPECT_EQ(aware.targetEnergy(), h0);
  EXPECT_GT(blended, 0);         // IM alone would have gained energy
  EXPECT_GT(towardsForward, 0);  // and IM / BE alone would have lost some
}

TEST(EnergyAwareIntegrator, FeprAndDampingKeepMomentaAndBookTheLedger) {
  testing::SpinningCube cube(2, MaterialModel::StableNeoHookean, 1e6, 10.0);
  PhysicalModel& model = *cube.model;
  EnergyAwareSettings settings;
  settings.projectEnergyMomentum = true;
  settings.momentumDamping = 0.02;
  EnergyAwareIntegrator aware(settings);
  const Vec3 p0 = linearMomentum(model.mass(), cube.initial.v);
  const Vec3 l0 = angularMomentum(model.mass(), cube.initial.x, cube.initial.v);
  double previousTarget = totalEnergy(model, cube.initial);
  State current = cube.initial;
  for (int step = 0; step < 40; ++step) {
    current = aware.step(model, current, nullptr, 0.05);
    ASSERT_TRUE(aware.lastInfo().fepr.converged) << "step " << step;
    EXPECT_LT(std::abs(totalEnergy(model, current) - aware.targetEnergy()), 1e-7);
    EXPECT_LT((linearMomentum(model.mass(), current.v) - p0).lpNorm<1>(), 1e-7);
    EXPECT_LT((angularMomentum(model.mass(), current.x, current.v) - l0).lpNorm<1>(), 1e-7);
    EXPECT_LE(aware.targetEnergy(), previousTarget);  // damping only removes energy
    previousTarget = aware.targetEnergy();
  }
  EXPECT_LT(previousTarget, totalEnergy(model, cube.initial));
}

}  // namespace
}  // namespace softfit
