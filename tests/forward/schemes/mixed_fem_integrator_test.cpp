#include "forward/schemes/mixed_fem_integrator.h"

#include <gtest/gtest.h>

#include "forward/errors.h"
#include "forward/integrators/simulator.h"
#include "forward/mesh/procedural_box.h"
#include "support/box_model.h"

namespace softfit {
namespace {

// A clamped bar, bent by gravity and an initial twisting velocity field.
struct BentBar {
  TetMesh mesh = makeBoxMesh(Vec3(0, 0, 0), Vec3(3, 1, 1), 3, 1, 1);
  std::unique_ptr<PhysicalModel> model;
  State initial;
  explicit BentBar(MaterialModel material) {
    model = testing::makeBoxModel(mesh, material, 1e5, 0.4, 100.0);
    model->gravity = Vec3(0, -9.81, 0);
    testing::clampNodesBelowX(*model, mesh, 1e-9);
    initial = restState(*model);
    for (int i = 0; i < model->nodeCount(); ++i) {
      const Vec3 X = model->restPositions().segment<3>(3 * i);
      initial.v.segment<3>(3 * i) = X.x() * Vec3(0.0, 1.0 - X.z(), X.y() - 0.5);
    }
    model->dirichlet.applyVelocities(0.0, initial.v);
  }
};

// Tightly converged mixed FEM and Newton give the same x* (to 1e-8 relative to the
// step's displacement; measured ~1e-14), for every step of a short run.
void expectAgreement(BentBar& bar, IntegratorType scheme) {
  IntegratorSettings newtonSettings;
  newtonSettings.type = scheme;
  newtonSettings.newton.stepTolerance = 1e-13;
  IncrementalPotentialIntegrator newton(newtonSettings);
  MixedFemSettings mixedSettings;
  mixedSettings.scheme = scheme;
  mixedSettings.stepTolerance = 1e-13;
  mixedSettings.stretchTolerance = 1e-12;
  mixedSettings.maxIterations = 200;
  MixedFemIntegrator mixed(mixedSettings);

  const double dt = 0.02;
  State previous, current = bar.initial;
  bool havePrevious = false;
  for (int step = 0; step < 3; ++step) {
    const State* prev = havePrevious ? &previous : nullptr;
    const State reference = newton.step(*bar.model, current, prev, dt);
    const State result = mixed.step(*bar.model, current, prev, dt);
    ASSERT_TRUE(mixed.lastInfo().converged);
    EXPECT_LT(mixed.lastInfo().constraintResidual, 1e-11);
    const double displacement = (reference.x - current.x).norm();
    ASSERT_GT(displacement, 1e-3);
    EXPECT_LT((result.x - reference.x).norm() / displacement, 1e-8) << "step " << step;
    EXPECT_LT((result.v - reference.v).norm() / reference.v.norm(), 1e-8) << "step " << step;
    previous = current;
    current = reference;
    havePrevious = true;
  }
}

class MixedFemAgreesWithNewton : public ::testing::TestWithParam<std::tuple<IntegratorType, MaterialModel>> {};

TEST_P(MixedFemAgreesWithNewton, SameStepsToTightTolerance) {
  const auto [scheme, material] = GetParam();
  BentBar bar(material);
  expectAgreement(bar, scheme);
}

// Rayleigh damping and ground contact enter the condensed system and the merit too.
TEST(MixedFemIntegrator, AgreesWithNewtonWithDampingAndGroundContact) {
  BentBar bar(MaterialModel::StableNeoHookean);
  bar.model->damping = {0.5, 0.01};
  std::vector<int> all(bar.model->nodeCount());
  for (int i = 0; i < bar.model->nodeCount(); ++i) all[i] = i;
  bar.model->ground = GroundContact(GroundPlane{Vec3(0, 1, 0), 0.02, 1e4, 100.0}, all);
  expectAgreement(bar, IntegratorType::BDF2);
}

INSTANTIATE_TEST_SUITE_P(Schemes, MixedFemAgreesWithNewton,
                         ::testing::Values(std::make_tuple(IntegratorType::BackwardEuler,
                                                           MaterialModel::StableNeoHookean),
                                           std::make_tuple(IntegratorType::BDF2, MaterialModel::StableNeoHookean),
                                           std::make_tuple(IntegratorType::BackwardEuler,
                                                           MaterialModel::Corotated)));

TEST(MixedFemIntegrator, CappedIterationsReportNonConvergence) {
  BentBar bar(MaterialModel::StableNeoHookean);
  MixedFemSettings settings;
  settings.maxIterations = 1;
  MixedFemIntegrator strict(settings);
  EXPECT_THROW(strict.step(*bar.model, bar.initial, nullptr, 0.02), SolveError);
  settings.requireConvergence = false;
  MixedFemIntegrator capped(settings);
  const State s = capped.step(*bar.model, bar.initial, nullptr, 0.02);
  EXPECT_FALSE(capped.lastInfo().converged);
  EXPECT_EQ(capped.lastInfo().iterations, 1);
  EXPECT_TRUE(s.x.allFinite());
}

TEST(MixedFemIntegrator, RejectsUnsupportedMaterialAndScheme) {
  BentBar bar(MaterialModel::StVK);
  MixedFemIntegrator mixed(MixedFemSettings{});
  EXPECT_THROW(mixed.step(*bar.model, bar.initial, nullptr, 0.02), InputError);
  MixedFemSettings settings;
  settings.scheme = IntegratorType::QuasiStatic;
  EXPECT_THROW(MixedFemIntegrator{settings}, InputError);
}

}  // namespace
}  // namespace softfit
