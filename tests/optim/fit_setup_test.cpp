// Building a fit (optim/fit_setup.h): the setup of a trajectory and its observations, the
// checked start values, `--optimizer auto`.
#include "optim/fit_setup.h"

#include <gtest/gtest.h>

#include "observations/observations_test_support.h"

namespace softfit {
namespace {

using testing::expectInputError;

class ConstantLoss final : public TrajectoryLoss {
 public:
  explicit ConstantLoss(bool jumps) : jumps_(jumps) {}
  double evaluate(int, const State&, VecX&, VecX&) override { return 1.0; }
  bool valueJumps() const override { return jumps_; }

 private:
  bool jumps_;
};

TEST(FitSetup, AutoOptimizerFollowsTheLoss) {
  EXPECT_EQ(fitOptimizerKind("auto", ConstantLoss(true)), OptimizerKind::GradientOnlyLbfgs);
  EXPECT_EQ(fitOptimizerKind("auto", ConstantLoss(false)), OptimizerKind::Lbfgs);
  EXPECT_EQ(fitOptimizerKind("bb", ConstantLoss(true)), OptimizerKind::BarzilaiBorwein);
  expectInputError([] { fitOptimizerKind("newton", ConstantLoss(false), "optimizer"); }, {"optimizer", "newton"});
}

TEST(FitSetup, SetupRunsUpToTheLastObservedFrame) {
  FitObservations observations;
  observations.loss = std::make_unique<ConstantLoss>(false);
  observations.steps = 12;
  TrajectorySetup trajectory;
  trajectory.dt = 0.01;
  trajectory.steps = 40;
  CheckpointOptions checkpoints;
  checkpoints.maxStates = 7;
  const FitSetup setup = makeFitSetup(trajectory, observations, checkpoints);
  EXPECT_EQ(setup.trajectory.steps, 12);
  EXPECT_EQ(setup.trajectory.dt, 0.01);
  EXPECT_EQ(setup.loss, observations.loss.get());
  EXPECT_EQ(setup.checkpoints.maxStates, 7);
}

TEST(FitSetup, StartValuesAreCheckedAndNamed) {
  const std::vector<Parameter> parameters = parseParameterList("E,nu");
  const ParameterSpace space(parameters, InitialMotion{});
  const TransformSet transforms = defaultTransforms(parameters);
  VecX p0(2);
  p0 << 3000.0, 0.3;
  applyStartValues({{"nu", 0.35}}, space, transforms, "--params E,nu", p0);
  EXPECT_EQ(p0[0], 3000.0);
  EXPECT_EQ(p0[1], 0.35);
  expectInputError([&] { applyStartValues({{"density", 10.0}}, space, transforms, "--params E,nu", p0, "--start"); },
                   {"--start: \"density\" is not among --params E,nu"});
  expectInputError([&] { applyStartValues({{"nu", 0.7}}, space, transforms, "params E,nu", p0, "start"); },
                   {"start nu = 0.7: must lie in (-1, 0.5)"});
  // Inside the range but outside the transform's domain (logit: (0, 0.5)): named too.
  expectInputError([&] { applyStartValues({{"nu", -0.2}}, space, transforms, "params E,nu", p0, "start"); },
                   {"start nu: ", "(0, 0.5)"});
  EXPECT_EQ(p0[1], 0.35);  // unchanged by the refused values
}

TEST(FitSetup, AStartValueFromTheSceneOutsideTheTransformIsNamed) {
  const std::vector<Parameter> parameters = parseParameterList("E,nu");
  const ParameterSpace space(parameters, InitialMotion{});
  const TransformSet transforms = defaultTransforms(parameters);
  VecX p0(2);
  p0 << 3000.0, -0.2;  // an auxetic scene: valid for the scene reader, outside the logit's (0, 0.5)
  expectInputError([&] { applyStartValues({}, space, transforms, "--params E,nu", p0, "--start"); },
                   {"nu = -0.2 (the scene's value", "(0, 0.5)", "--start nu=VALUE"});
  applyStartValues({{"nu", 0.2}}, space, transforms, "--params E,nu", p0);  // a start inside it is fine
  EXPECT_EQ(p0[1], 0.2);
}

}  // namespace
}  // namespace softfit
