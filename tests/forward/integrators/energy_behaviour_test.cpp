// Energy behaviour of the integrators: Newmark theta = 1/2 conserves the energy of a
// linear model; BE and BDF2 dissipate it monotonically.
#include <gtest/gtest.h>

#include "forward/integrators/simulator.h"
#include "support/box_model.h"
#include "forward/registry/integrator_registry.h"

namespace softfit {
namespace {

// Total energy of a linear model under constant gravity: kinetic + elastic + gravity.
double totalEnergy(const PhysicalModel& model, const State& s) {
  return model.kineticEnergy(s.v) + model.potentialEnergy(s.x);
}

// A cantilever released from a bent state (initial velocity field) under gravity.
struct SwingingBar {
  TetMesh mesh = makeBoxMesh(Vec3(0, 0, 0), Vec3(4, 1, 1), 8, 2, 2);
  std::unique_ptr<PhysicalModel> model;
  State initial;
  SwingingBar(MaterialModel material, double alpha1 = 0.0, double alpha2 = 0.0) {
    model = testing::makeBoxModel(mesh, material, 1e7, 0.3, 100.0);
    model->gravity = Vec3(0, -9.81, 0);
    model->damping = {alpha1, alpha2};
    testing::clampNodesBelowX(*model, mesh, 1e-9);
    initial = restState(*model);
    for (int i = 0; i < model->nodeCount(); ++i) {
      const double x = model->restPositions()[3 * i];
      initial.v.segment<3>(3 * i) = Vec3(0, 1.0 * x, 0.5 * x);
    }
    model->dirichlet.applyVelocities(0.0, initial.v);
  }
};

TEST(NewmarkTheta, HalfConservesEnergyOfLinearModel) {
  SwingingBar bar(MaterialModel::Linear);
  IntegratorSettings settings;
  settings.type = IntegratorType::NewmarkTheta;
  settings.theta = 0.5;
  Simulator sim(*bar.model, makeIntegrator(settings), 0.005);
  const double e0 = totalEnergy(*bar.model, bar.initial);
  const Trajectory t = sim.run(bar.initial, 1000, true);
  double worst = 0.0;
  for (const auto& s : t.states) worst = std::max(worst, std::abs(totalEnergy(*bar.model, s) - e0));
  const double scale = bar.model->kineticEnergy(bar.initial.v);
  EXPECT_LT(worst / scale, 1e-8);
  // The bar really moves (the test would pass trivially otherwise).
  EXPECT_GT((t.states[500].x - bar.initial.x).cwiseAbs().maxCoeff(), 0.01);
}

TEST(NewmarkTheta, AboveHalfDissipates) {
  SwingingBar bar(MaterialModel::Linear);
  IntegratorSettings settings;
  settings.type = IntegratorType::NewmarkTheta;
  settings.theta = 0.6;
  Simulator sim(*bar.model, makeIntegrator(settings), 0.005);
  const Trajectory t = sim.run(bar.initial, 400, true);
  double previous = totalEnergy(*bar.model, t.states[0]);
  for (size_t k = 1; k < t.states.size(); ++k) {
    const double e = totalEnergy(*bar.model, t.states[k]);
    ASSERT_LE(e, previous + 1e-12 * std::abs(previous)) << "step " << k;
    previous = e;
  }
  // Numerical dissipation removes a good part of the initial kinetic energy.
  EXPECT_LT(previous, totalEnergy(*bar.model, t.states[0]) - 0.1 * bar.model->kineticEnergy(bar.initial.v));
}

class DissipativeIntegrator : public ::testing::TestWithParam<IntegratorType> {};

TEST_P(DissipativeIntegrator, EnergyDecreasesMonotonically) {
  for (MaterialModel material : {MaterialModel::Linear, MaterialModel::NeoHookean}) {
    SwingingBar bar(material);
    IntegratorSettings settings;
    settings.type = GetParam();
    Simulator sim(*bar.model, makeIntegrator(settings), 0.01);
    const Trajectory t = sim.run(bar.initial, 150, true);
    double previous = totalEnergy(*bar.model, t.states[0]);
    for (size_t k = 1; k < t.states.size(); ++k) {
      const double e = totalEnergy(*bar.model, t.states[k]);
      ASSERT_LE(e, previous + 1e-12 * std::abs(previous)) << integratorTypeName(GetParam()) << " step " << k;
      previous = e;
    }
    EXPECT_LT(previous, totalEnergy(*bar.model, t.states[0]) - 0.1 * bar.model->kineticEnergy(bar.initial.v));
  }
}

INSTANTIATE_TEST_SUITE_P(BackwardEulerAndBdf2, DissipativeIntegrator,
                         ::testing::Values(IntegratorType::BackwardEuler, IntegratorType::BDF2),
                         [](const auto& info) { return integratorTypeName(info.param); });

TEST(IncrementalPotential, TrapezoidAndMidpointNearlyConserveLinearEnergy) {
  for (IntegratorType type : {IntegratorType::NewmarkTrapezoid, IntegratorType::ImplicitMidpoint}) {
    SwingingBar bar(MaterialModel::Linear);
    bar.model->gravity.setZero();
    IntegratorSettings settings;
    settings.type = type;
    Simulator sim(*bar.model, makeIntegrator(settings), 0.005);
    const double e0 = totalEnergy(*bar.model, bar.initial);
    const Trajectory t = sim.run(bar.initial, 200, true);
    // For a linear model both schemes are the trapezoidal rule: energy is conserved
    // up to the Newton tolerance.
    EXPECT_NEAR(totalEnergy(*bar.model, t.states.back()) / e0, 1.0, 1e-6) << integratorTypeName(type);
  }
}

TEST(Damping, RayleighDampingRemovesEnergy) {
  SwingingBar undamped(MaterialModel::Corotated), damped(MaterialModel::Corotated, 0.5, 0.01);
  IntegratorSettings settings;
  settings.type = IntegratorType::ImplicitMidpoint;
  Simulator a(*undamped.model, makeIntegrator(settings), 0.01), b(*damped.model, makeIntegrator(settings), 0.01);
  const State ua = a.run(undamped.initial, 100, false).states.back();
  const State ub = b.run(damped.initial, 100, false).states.back();
  EXPECT_LT(totalEnergy(*damped.model, ub), 0.8 * totalEnergy(*undamped.model, ua));
}

}  // namespace
}  // namespace softfit
