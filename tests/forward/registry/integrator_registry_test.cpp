// The integrator registry: exactly one row selects any valid settings, it builds the
// integrator of that row, the device hook overrides it, and settings no row takes fail.
#include "forward/registry/integrator_registry.h"

#include <gtest/gtest.h>

#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "forward/integrators/incremental_potential_integrator.h"
#include "forward/integrators/newmark_theta_integrator.h"
#include "forward/integrators/quasi_static_solver.h"
#include "forward/nonlinear/step_solver_integrator.h"
#include "forward/schemes/mixed_fem_integrator.h"

namespace softfit {
namespace {

const IntegratorType kTypes[] = {IntegratorType::NewmarkTheta,     IntegratorType::BackwardEuler,
                                 IntegratorType::BDF2,             IntegratorType::ImplicitMidpoint,
                                 IntegratorType::NewmarkTrapezoid, IntegratorType::QuasiStatic};

// Every scheme without a step solver, and every incremental-potential scheme with each step solver.
std::vector<IntegratorSettings> validSettings() {
  std::vector<IntegratorSettings> all;
  for (IntegratorType type : kTypes) {
    IntegratorSettings s;
    s.type = type;
    all.push_back(s);
    if (!isIncrementalPotential(type)) continue;
    for (StepSolverType solver : {StepSolverType::Newton, StepSolverType::Lbfgs, StepSolverType::ProjectiveDynamics}) {
      s.stepSolver = StepSolverChoice{};
      s.stepSolver->type = solver;
      all.push_back(s);
    }
    s.stepSolver = StepSolverChoice{};
    s.stepSolver->mixedFem = true;
    all.push_back(s);
  }
  return all;
}

std::string describe(const IntegratorSettings& s) {
  return integratorTypeName(s.type) + (s.stepSolver ? (s.stepSolver->mixedFem ? " + mfem" : " + " + stepSolverTypeName(s.stepSolver->type)) : "");
}

TEST(IntegratorRegistry, ExactlyOneRowSelectsEachSettings) {
  for (const IntegratorSettings& s : validSettings()) {
    int selecting = 0;
    for (const IntegratorDescriptor& d : integratorRegistry()) selecting += d.selects(s) ? 1 : 0;
    EXPECT_EQ(selecting, 1) << describe(s);
  }
  std::set<std::string> names;
  for (const IntegratorDescriptor& d : integratorRegistry()) EXPECT_TRUE(names.insert(d.name).second) << d.name;
}

TEST(IntegratorRegistry, BuildsTheIntegratorOfTheSelectedRow) {
  for (const IntegratorSettings& s : validSettings()) {
    const std::unique_ptr<TimeIntegrator> integrator = makeIntegrator(s);
    ASSERT_TRUE(integrator) << describe(s);
    EXPECT_EQ(integrator->type(), s.type) << describe(s);
    const std::string row = findIntegrator(s).name;
    TimeIntegrator* p = integrator.get();
    if (s.type == IntegratorType::NewmarkTheta) {
      EXPECT_EQ(row, "newmark_theta");
      EXPECT_NE(dynamic_cast<NewmarkThetaIntegrator*>(p), nullptr);
    } else if (s.type == IntegratorType::QuasiStatic) {
      EXPECT_EQ(row, "quasi_static");
      EXPECT_NE(dynamic_cast<QuasiStaticSolver*>(p), nullptr);
    } else if (!s.stepSolver) {
      EXPECT_EQ(row, "incremental_potential");
      EXPECT_NE(dynamic_cast<IncrementalPotentialIntegrator*>(p), nullptr);
    } else if (s.stepSolver->mixedFem) {
      EXPECT_EQ(row, "mixed_fem");
      EXPECT_NE(dynamic_cast<MixedFemIntegrator*>(p), nullptr);
    } else {
      EXPECT_EQ(row, "step_solver");
      EXPECT_NE(dynamic_cast<StepSolverIntegrator*>(p), nullptr);
    }
  }
}

TEST(IntegratorRegistry, OnlyNewmarkThetaRunsOnCuda) {
  for (const IntegratorSettings& s : validSettings())
    EXPECT_EQ(findIntegrator(s).runsOnCuda, s.type == IntegratorType::NewmarkTheta && !s.stepSolver) << describe(s);
}

TEST(IntegratorRegistry, TheDeviceHookOverridesTheTable) {
  IntegratorSettings s;
  s.type = IntegratorType::NewmarkTheta;
  int calls = 0;
  s.factory = [&calls](const IntegratorSettings& settings) -> std::unique_ptr<TimeIntegrator> {
    ++calls;
    return std::make_unique<QuasiStaticSolver>(settings);
  };
  const std::unique_ptr<TimeIntegrator> integrator = makeIntegrator(s);
  EXPECT_EQ(calls, 1);
  EXPECT_NE(dynamic_cast<QuasiStaticSolver*>(integrator.get()), nullptr);
}

TEST(IntegratorRegistry, SettingsNoRowTakesAreRefused) {
  for (IntegratorType type : {IntegratorType::NewmarkTheta, IntegratorType::QuasiStatic}) {
    IntegratorSettings s;
    s.type = type;
    s.stepSolver = StepSolverChoice{};
    EXPECT_THROW(makeIntegrator(s), std::logic_error) << describe(s);
  }
}

}  // namespace
}  // namespace softfit
