// The integrators' Newton solves converge to the same states whatever the eigenvalue
// filter (clamp, abs, or adaptive, which switches between them per iteration): the
// filter changes the path, not the minimizer.
#include <gtest/gtest.h>

#include "forward/integrators/simulator.h"
#include "support/box_model.h"
#include "forward/registry/integrator_registry.h"

namespace softfit {
namespace {

// A clamped neo-Hookean bar released with a large twisting/bending velocity field.
struct TwistedBar {
  TetMesh mesh = makeBoxMesh(Vec3(0, 0, 0), Vec3(2, 0.5, 0.5), 6, 2, 2);
  std::unique_ptr<PhysicalModel> model;
  State initial;
  TwistedBar() {
    model = testing::makeBoxModel(mesh, MaterialModel::NeoHookean, 1e5, 0.45, 1000.0);
    model->gravity = Vec3(0, -9.81, 0);
    testing::clampNodesBelowX(*model, mesh, 1e-9);
    initial.x = model->restPositions();
    initial.v = VecX::Zero(initial.x.size());
    for (int i = 0; i < model->nodeCount(); ++i) {
      const Vec3 X = initial.x.segment<3>(3 * i);
      initial.v.segment<3>(3 * i) = 6.0 * X.x() * Vec3(0.0, -(X.z() - 0.25), X.y() - 0.25) + Vec3(0, -X.x(), 0);
    }
    model->dirichlet.applyVelocities(0.0, initial.v);
  }
};

Trajectory run(IntegratorType type, EigenvalueFilter filter, int steps) {
  TwistedBar bar;
  IntegratorSettings settings;
  settings.type = type;
  settings.filter = filter;
  Simulator sim(*bar.model, makeIntegrator(settings), 0.05);
  return sim.run(bar.initial, steps, true);
}

TEST(EigenvalueFilter, ClampAbsAndAdaptiveGiveTheSameTrajectory) {
  for (IntegratorType type : {IntegratorType::BackwardEuler, IntegratorType::QuasiStatic}) {
    const Trajectory clamp = run(type, EigenvalueFilter::Clamp, 6);
    const VecX& last = clamp.states.back().x;
    // The bar deforms a lot (twist), so the filters see negative element modes.
    ASSERT_GT((last - clamp.states.front().x).cwiseAbs().maxCoeff(), 0.05) << integratorTypeName(type);
    for (EigenvalueFilter filter : {EigenvalueFilter::Abs, EigenvalueFilter::Adaptive}) {
      const Trajectory other = run(type, filter, 6);
      ASSERT_EQ(other.states.size(), clamp.states.size());
      for (size_t k = 0; k < clamp.states.size(); ++k)
        EXPECT_LT((other.states[k].x - clamp.states[k].x).norm(), 1e-8 * clamp.states[k].x.norm())
            << integratorTypeName(type) << " " << eigenvalueFilterName(filter) << " state " << k;
    }
  }
}

}  // namespace
}  // namespace softfit
