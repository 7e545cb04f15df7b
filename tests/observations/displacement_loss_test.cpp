// Displacement observations: loss value and gradient (finite differences), frame /
// stride mapping, synthetic observations from a trajectory, the JSON file format and
// its errors.
#include "observations/displacement_loss.h"

#include <gtest/gtest.h>

#include "forward/mesh/temp_directory.h"
#include "observations/displacement_observations.h"
#include "observations_test_support.h"
#include "support/finite_difference.h"

namespace softfit {
namespace {

using testing::expectInputError;
using testing::writeFile;

DisplacementObservations partialObservations(int nodeCount) {
  DisplacementObservations obs;
  obs.source = "test";
  DisplacementFrame a;
  a.frame = 1;
  a.weight = 2.5;
  a.nodes = {0, 7, 3};
  a.positions = PointMatrix::Random(3, 3);
  DisplacementFrame b;
  b.frame = 0;
  b.weight = 0.5;
  b.positions = PointMatrix::Random(nodeCount, 3);  // all nodes
  obs.frames = {a, b};
  return obs;
}

TEST(DisplacementLoss, ValueAndGradientMatchFiniteDifferences) {
  const int n = 10;
  DisplacementLoss loss(partialObservations(n), n, /*stride=*/3);
  std::mt19937_64 rng(1);
  std::uniform_real_distribution<double> u(-1, 1);
  VecX x(3 * n);
  for (int i = 0; i < x.size(); ++i) x[i] = u(rng);
  for (const int step : {0, 3}) {
    State s{x, VecX::Zero(3 * n), 0.0};
    VecX gx = VecX::Zero(3 * n), gv = VecX::Zero(3 * n);
    const double value = loss.evaluate(step, s, gx, gv);
    EXPECT_GT(value, 0.0);
    EXPECT_EQ(gv.norm(), 0.0);
    const auto f = [&](const VecX& y) {
      State t{y, VecX::Zero(3 * n), 0.0};
      VecX g = VecX::Zero(3 * n), h = VecX::Zero(3 * n);
      return loss.evaluate(step, t, g, h);
    };
    const VecX fd = testing::centralGradient(f, x, 1e-6);
    EXPECT_LT((fd - gx).norm(), 1e-8 * (1.0 + gx.norm())) << "step " << step;
  }
  // Explicit value for step 3 = frame 1: 2.5 * 1/2 sum |x_n - t|^2 over nodes 0, 7, 3.
  const DisplacementFrame& f1 = loss.observations().frames[0];
  double expected = 0.0;
  for (int i = 0; i < 3; ++i)
    expected += (x.segment<3>(3 * f1.nodes[i]) - f1.positions.row(i).transpose()).squaredNorm();
  State s{x, VecX::Zero(3 * n), 0.0};
  VecX gx = VecX::Zero(3 * n), gv = VecX::Zero(3 * n);
  EXPECT_NEAR(loss.evaluate(3, s, gx, gv), 1.25 * expected, 1e-12);
  // Steps without an observation contribute nothing and do not touch the gradient.
  gx.setZero();
  for (const int step : {1, 2, 4, 6, 9}) EXPECT_EQ(loss.evaluate(step, s, gx, gv), 0.0);
  EXPECT_EQ(gx.norm(), 0.0);
  EXPECT_EQ(loss.lastStep(), 3);
  EXPECT_EQ(loss.entryAtStep(0), 1);
  EXPECT_EQ(loss.entryAtStep(3), 0);
}

TEST(DisplacementLoss, ResidualsSquareToTheValue) {
  const int n = 10;
  DisplacementLoss loss(partialObservations(n), n, /*stride=*/3);
  ASSERT_TRUE(loss.hasResiduals());
  std::mt19937_64 rng(2);
  std::uniform_real_distribution<double> u(-1, 1);
  State s{VecX::NullaryExpr(3 * n, [&](Eigen::Index) { return u(rng); }), VecX::Zero(3 * n), 0.0};
  for (const int step : {0, 1, 3, 4}) {
    std::vector<double> r{42.0};  // appended to
    loss.appendResiduals(step, s, r);
    VecX gx = VecX::Zero(3 * n), gv = VecX::Zero(3 * n);
    const double value = loss.evaluate(step, s, gx, gv);
    const int observed = step == 0 ? n : step == 3 ? 3 : 0;
    ASSERT_EQ(r.size(), 1u + 3u * observed) << "step " << step;
    EXPECT_EQ(r[0], 42.0);
    const VecX residual = Eigen::Map<const VecX>(r.data() + 1, 3 * observed);
    EXPECT_NEAR(0.5 * residual.squaredNorm(), value, 1e-14 * (1.0 + value)) << "step " << step;
  }
  std::vector<double> r;
  expectInputError([&] { loss.appendResiduals(0, State{VecX::Zero(6), VecX::Zero(6), 0.0}, r); }, {"test", "nodes"});
}

TEST(DisplacementLoss, SyntheticObservationsFromStatesGiveZeroLossOnTheSameTrajectory) {
  std::vector<State> states;
  for (int k = 0; k < 7; ++k) states.push_back({VecX::Random(12), VecX::Zero(12), 0.01 * k});
  const auto obs = displacementObservationsFromStates(states, {}, 2, 0.01);
  ASSERT_EQ(obs.frames.size(), 4u);  // steps 0, 2, 4, 6
  EXPECT_DOUBLE_EQ(obs.dt, 0.02);
  DisplacementLoss loss(obs, 4, 2);
  for (int k = 0; k < 7; ++k) {
    VecX gx = VecX::Zero(12), gv = VecX::Zero(12);
    EXPECT_EQ(loss.evaluate(k, states[k], gx, gv), 0.0);
    EXPECT_EQ(gx.norm(), 0.0);
  }
  const auto partial = displacementObservationsFromStates(states, {3, 1}, 3);
  ASSERT_EQ(partial.frames.size(), 3u);
  EXPECT_EQ(partial.frames[2].positions.row(0).transpose(), states[6].x.segment<3>(9));
  expectInputError([&] { displacementObservationsFromStates(states, {4}, 1); }, {"node 4", "out of range"});
}

TEST(DisplacementLoss, FileRoundTripIsExact) {
  TempDirectory dir("softfit-disp-");
  auto obs = partialObservations(5);
  obs.dt = 0.025;
  writeDisplacementObservations(dir.file("obs.json"), obs);
  const auto back = readDisplacementObservations(dir.file("obs.json"));
  EXPECT_EQ(back.source, dir.file("obs.json"));
  EXPECT_EQ(back.dt, 0.025);
  ASSERT_EQ(back.frames.size(), 2u);
  for (int f = 0; f < 2; ++f) {
    EXPECT_EQ(back.frames[f].frame, obs.frames[f].frame);
    EXPECT_EQ(back.frames[f].weight, obs.frames[f].weight);
    EXPECT_EQ(back.frames[f].nodes, obs.frames[f].nodes);
    EXPECT_EQ(back.frames[f].positions, obs.frames[f].positions);  // bit-exact
  }
}

TEST(DisplacementLoss, MalformedFilesAndMismatchesNameTheFileAndField) {
  TempDirectory dir("softfit-disp-");
  const std::string p = dir.file("obs.json");
  expectInputError([&] { readDisplacementObservations(dir.file("missing.json")); }, {"missing.json"});
  writeFile(p, "{\"frames\": [ {\"frame\": 0, ");
  expectInputError([&] { readDisplacementObservations(p); }, {p, "invalid JSON"});
  writeFile(p, R"({"frames": [{"frame": 0, "nodes": [1, 2], "positions": [[0, 0, 0]]}]})");
  expectInputError([&] { readDisplacementObservations(p); }, {p, "frames[0].positions", "1 positions for 2 nodes"});
  writeFile(p, R"({"frames": [{"frame": 0, "positions": [[0, 0]]}]})");
  expectInputError([&] { readDisplacementObservations(p); }, {p, "frames[0].positions[0]"});
  writeFile(p, R"({"frames": [{"frame": 2, "positions": [[0, 0, 0]]}, {"frame": 2, "positions": [[0, 0, 0]]}]})");
  expectInputError([&] { readDisplacementObservations(p); }, {p, "frames[1].frame", "twice"});
  writeFile(p, R"({"frames": [{"frame": 0, "nodes": [1, 1], "positions": [[0, 0, 0], [1, 1, 1]]}]})");
  expectInputError([&] { readDisplacementObservations(p); }, {p, "frames[0].nodes", "node 1"});
  writeFile(p, R"({"frames": [{"frame": 0, "wieght": 1, "positions": [[0, 0, 0]]}]})");
  expectInputError([&] { readDisplacementObservations(p); }, {p, "frames[0].wieght"});
  writeFile(p, R"({"frames": [{"frame": 0, "weight": -1, "positions": [[0, 0, 0]]}]})");
  expectInputError([&] { readDisplacementObservations(p); }, {p, "frames[0].weight"});
  // Valid file, but the node is out of range for the body / all-node frames need every node.
  writeFile(p, R"({"frames": [{"frame": 4, "nodes": [9], "positions": [[0, 0, 0]]}]})");
  expectInputError([&] { DisplacementLoss(readDisplacementObservations(p), 5); }, {p, "frame 4", "node 9"});
  writeFile(p, R"({"frames": [{"frame": 1, "positions": [[0, 0, 0]]}]})");
  expectInputError([&] { DisplacementLoss(readDisplacementObservations(p), 5); }, {p, "frame 1", "5 nodes"});
  // Issue 25: a frame index of 2e9 allocated a table of 2e9 entries and simulated as many steps.
  writeFile(p, R"({"frames": [{"frame": 2000000000, "nodes": [0], "positions": [[0, 0, 0]]}]})");
  expectInputError([&] { DisplacementLoss(readDisplacementObservations(p), 100000); }, {p, "frame 2000000000", "memory"});
  expectInputError([&] { DisplacementLoss(readDisplacementObservations(p), 5, 2); }, {p, "frame 2000000000", "steps"});
  writeFile(p, R"({"frames": [{"frame": 1, "positions": [[0, 0, 0]]}]})");
  DisplacementLoss loss(readDisplacementObservations(p), 1);
  State wrong{VecX::Zero(6), VecX::Zero(6), 0.0};
  VecX gx = VecX::Zero(6), gv = VecX::Zero(6);
  expectInputError([&] { loss.evaluate(1, wrong, gx, gv); }, {p, "step 1", "frame 1"});
}

}  // namespace
}  // namespace softfit
