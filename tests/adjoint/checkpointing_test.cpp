// Checkpointing strategies recompute exactly the same states, so they give
// bit-identical gradients with bounded memory; failures are reported, not hidden.
#include <gtest/gtest.h>

#include <cstring>

#include "adjoint/trajectory_gradient.h"
#include "forward/errors.h"
#include "forward/integrators/simulator.h"
#include "support/box_model.h"

namespace softfit {
namespace {

class KineticLoss final : public TrajectoryLoss {
 public:
  explicit KineticLoss(VecX mass) : mass_(std::move(mass)) {}
  double evaluate(int frame, const State& s, VecX& gx, VecX& gv) override {
    gx += mass_.cwiseProduct(s.x) * 1e-2;
    gv += mass_.cwiseProduct(s.v);
    return 0.5 * s.v.dot(mass_.cwiseProduct(s.v)) + 0.5e-2 * s.x.dot(mass_.cwiseProduct(s.x)) + 0.0 * frame;
  }

 private:
  VecX mass_;
};

struct Fixture {
  TetMesh mesh = makeBoxMesh(Vec3(0, 0, 0), Vec3(1, 0.25, 0.25), 4, 1, 1);
  std::unique_ptr<PhysicalModel> model = testing::makeBoxModel(mesh, MaterialModel::Corotated, 1e4, 0.3, 100.0);
  IntegratorSettings settings;
  State initial;
  Fixture(IntegratorType type) {
    model->gravity = Vec3(0, -9.81, 0);
    model->damping = {0.1, 0.01};
    testing::clampNodesBelowX(*model, mesh, 1e-9);
    settings.type = type;
    initial = restState(*model);
  }
};

bool identical(const VecX& a, const VecX& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), sizeof(double) * a.size()) == 0;
}

void expectIdentical(const TrajectoryGradient& a, const TrajectoryGradient& b) {
  EXPECT_EQ(a.loss, b.loss);
  EXPECT_TRUE(identical(a.parameters.mu, b.parameters.mu));
  EXPECT_TRUE(identical(a.parameters.lambda, b.parameters.lambda));
  EXPECT_TRUE(identical(a.parameters.density, b.parameters.density));
  EXPECT_EQ(a.parameters.alpha1, b.parameters.alpha1);
  EXPECT_EQ(a.parameters.alpha2, b.parameters.alpha2);
  EXPECT_TRUE(identical(a.initialX, b.initialX));
  EXPECT_TRUE(identical(a.initialV, b.initialV));
}

class Checkpointing : public ::testing::TestWithParam<IntegratorType> {};

TEST_P(Checkpointing, StrategiesGiveBitIdenticalGradients) {
  Fixture f(GetParam());
  KineticLoss loss(f.model->mass());
  const int steps = 37;
  const TrajectoryGradient all = trajectoryGradient({f.model.get(), f.settings, 0.01, steps, f.initial}, loss);
  EXPECT_EQ(all.checkpoints.forwardSteps, steps);
  EXPECT_GT(std::abs(all.parameters.mu.sum()), 0.0);

  const TrajectoryGradient again = trajectoryGradient({f.model.get(), f.settings, 0.01, steps, f.initial}, loss);
  expectIdentical(all, again);  // deterministic

  CheckpointOptions periodic;
  periodic.strategy = CheckpointStrategy::Periodic;
  periodic.period = 6;
  const TrajectoryGradient p = trajectoryGradient({f.model.get(), f.settings, 0.01, steps, f.initial}, loss, periodic);
  expectIdentical(all, p);
  EXPECT_LT(p.checkpoints.peakStoredStates, all.checkpoints.peakStoredStates);

  CheckpointOptions binomial;
  binomial.strategy = CheckpointStrategy::Binomial;
  binomial.maxStates = 9;
  const TrajectoryGradient b = trajectoryGradient({f.model.get(), f.settings, 0.01, steps, f.initial}, loss, binomial);
  expectIdentical(all, b);
  EXPECT_LE(b.checkpoints.peakStoredStates, binomial.maxStates);
  EXPECT_GT(b.checkpoints.forwardSteps, steps);  // it recomputed

  binomial.maxStates = 2;  // extreme: quadratic recomputation, still the same gradient
  expectIdentical(all, trajectoryGradient({f.model.get(), f.settings, 0.01, steps, f.initial}, loss, binomial));
}

INSTANTIATE_TEST_SUITE_P(Schemes, Checkpointing,
                         ::testing::Values(IntegratorType::BackwardEuler, IntegratorType::BDF2),
                         [](const auto& info) { return integratorTypeName(info.param); });

TEST(TrajectoryGradient, FailedForwardSolveIsReportedNotDifferentiated) {
  Fixture f(IntegratorType::BackwardEuler);
  f.settings.newton.maxIterations = 1;  // cannot converge a nonlinear step
  for (int i = 0; i < f.model->nodeCount(); ++i) f.initial.v.segment<3>(3 * i) = Vec3(0, 0, 30.0 * i);
  f.model->dirichlet.applyVelocities(0.0, f.initial.v);
  KineticLoss loss(f.model->mass());
  try {
    trajectoryGradient({f.model.get(), f.settings, 0.05, 10, f.initial}, loss);
    FAIL() << "a gradient was returned for a failed trajectory";
  } catch (const SolveError& e) {
    EXPECT_NE(std::string(e.what()).find("no gradient"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace softfit
