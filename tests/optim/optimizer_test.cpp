#include "optim/optimizer.h"

#include <gtest/gtest.h>

#include <cmath>

#include "forward/errors.h"
#include "optim/parameter_transform.h"

namespace softfit {
namespace {

// A smooth ill-conditioned test function (Rosenbrock in 4D, minimum at 1).
double rosenbrock(const VecX& q, VecX& g) {
  double f = 0.0;
  g = VecX::Zero(q.size());
  for (int i = 0; i + 1 < q.size(); ++i) {
    const double a = q[i + 1] - q[i] * q[i], b = 1.0 - q[i];
    f += 100.0 * a * a + b * b;
    g[i] += -400.0 * a * q[i] - 2.0 * b;
    g[i + 1] += 200.0 * a;
  }
  return f;
}

class Optimizers : public ::testing::TestWithParam<OptimizerKind> {};

TEST_P(Optimizers, MinimizeRosenbrock) {
  OptimizerOptions options;
  options.kind = GetParam();
  options.maxIterations = GetParam() == OptimizerKind::BarzilaiBorwein ? 20000 : 500;
  options.gradientTolerance = 1e-9;
  options.relativeCostTolerance = 0.0;
  VecX q0(4);
  q0 << -1.2, 1.0, -0.5, 0.8;
  int records = 0;
  const OptimizationResult r = minimize(rosenbrock, q0, options, [&](const IterationRecord&) { ++records; });
  EXPECT_LT((r.point - VecX::Ones(4)).norm(), 1e-4) << optimizerKindName(GetParam()) << ": " << r.stopReason;
  EXPECT_GT(records, 3);
  EXPECT_EQ(static_cast<int>(r.history.size()), records);
  EXPECT_EQ(r.history.front().iteration, 0);
  // Costs in the history never increase (iterations are accepted points), except for the
  // gradient-only search, which never compares costs.
  if (GetParam() == OptimizerKind::GradientOnlyLbfgs) return;
  for (size_t k = 1; k < r.history.size(); ++k) EXPECT_LE(r.history[k].cost, r.history[k - 1].cost * (1 + 1e-12));
}

INSTANTIATE_TEST_SUITE_P(All, Optimizers,
                         ::testing::Values(OptimizerKind::Lbfgs, OptimizerKind::LbfgsB, OptimizerKind::BarzilaiBorwein,
                                           OptimizerKind::Ceres, OptimizerKind::GradientOnlyLbfgs),
                         [](const auto& info) {
                           std::string name = optimizerKindName(info.param);
                           for (char& c : name)
                             if (c == '-') c = '_';
                           return name;
                         });

TEST(Optimizers, BarzilaiBorweinTakesAGivenFirstStep) {
  // f = |q|^2 / 2 from (3, 4): a first step of length 5 along -gradient lands on 0; the
  // default first step moves the largest coordinate by 0.01.
  const auto f = [](const VecX& q, VecX& g) {
    g = q;
    return 0.5 * q.squaredNorm();
  };
  OptimizerOptions options;
  options.kind = OptimizerKind::BarzilaiBorwein;
  options.maxIterations = 1;
  const VecX q0 = (VecX(2) << 3.0, 4.0).finished();
  OptimizationResult r = minimize(f, q0, options);
  EXPECT_NEAR((q0 - r.point).cwiseAbs().maxCoeff(), 0.01, 1e-12);
  options.firstStep = 5.0;
  r = minimize(f, q0, options);
  EXPECT_LT(r.point.norm(), 1e-12);
}

TEST(Optimizers, LbfgsBRespectsBounds) {
  OptimizerOptions options;
  options.kind = OptimizerKind::LbfgsB;
  options.lowerBounds = VecX::Constant(4, -10.0);
  options.upperBounds = VecX::Constant(4, 0.5);
  VecX q0 = VecX::Zero(4);
  const OptimizationResult r = minimize(rosenbrock, q0, options);
  EXPECT_LE(r.point.maxCoeff(), 0.5 + 1e-12);
  EXPECT_NEAR(r.point[0], 0.5, 1e-3);  // the bound is active
}

TEST(Optimizers, FailedForwardSolveStopsCleanlyWithBestPoint) {
  // Objective fails beyond q0 > 0.5 (e.g. a forward simulation that diverges there).
  auto f = [](const VecX& q, VecX& g) {
    if (q[0] > 0.5) throw SolveError("step 3 of 40 failed: Newton did not converge");
    g = VecX::Constant(1, 2.0 * (q[0] - 2.0));
    return (q[0] - 2.0) * (q[0] - 2.0);
  };
  for (OptimizerKind kind : {OptimizerKind::Lbfgs, OptimizerKind::BarzilaiBorwein, OptimizerKind::Ceres,
                            OptimizerKind::GradientOnlyLbfgs}) {
    OptimizerOptions options;
    options.kind = kind;
    options.maxIterations = 50;
    const OptimizationResult r = minimize(f, VecX::Zero(1), options);
    EXPECT_FALSE(r.converged) << optimizerKindName(kind);
    EXPECT_LE(r.point[0], 0.5);
    EXPECT_NE(r.stopReason.find("forward solve failed"), std::string::npos) << optimizerKindName(kind) << ": " << r.stopReason;
  }
  OptimizerOptions options;
  const OptimizationResult r = minimize(f, VecX::Constant(1, 1.0), options);  // fails at the start
  EXPECT_NE(r.stopReason.find("initial parameters"), std::string::npos) << r.stopReason;
}

// A quadratic bowl plus plateaus of +-0.02 that alternate every 0.05 in q0 + q1 (like a
// cost whose points change cell), reporting the bowl's gradient. Value-based line
// searches see the plateaus (L-BFGS from (0.9, 0.52) stops 0.011 away, at a plateau edge);
// the gradient-only search must reach the bowl's minimum.
double bowlWithJumps(const VecX& q, VecX& g) {
  const Eigen::Vector2d c(1.0, 0.5625);  // on a raised plateau: q0 + q1 = 1.5625
  const Eigen::Vector2d d = Eigen::Vector2d(q[0], q[1]) - c;
  g = VecX(2);
  g << d[0], 100.0 * d[1];
  const bool odd = static_cast<long>(std::floor(20.0 * (q[0] + q[1]))) % 2 != 0;
  return 0.5 * (d[0] * d[0] + 100.0 * d[1] * d[1]) + (odd ? 0.02 : -0.02);
}

TEST(Optimizers, GradientOnlyLbfgsReachesTheStationaryPointOfAJumpingCost) {
  OptimizerOptions options;
  options.kind = OptimizerKind::GradientOnlyLbfgs;
  options.gradientTolerance = 1e-10;
  options.stepTolerance = 0.0;
  for (const Eigen::Vector2d& start : {Eigen::Vector2d(-1.0, 2.0), Eigen::Vector2d(3.0, -1.0), Eigen::Vector2d(0.9, 0.52)}) {
    const OptimizationResult r = minimize(bowlWithJumps, VecX(Eigen::Vector2d(start)), options);
    EXPECT_TRUE(r.converged) << r.stopReason;
    EXPECT_LT((r.point - Eigen::Vector2d(1.0, 0.5625)).norm(), 1e-9) << start.transpose() << ": " << r.stopReason;
    EXPECT_LT(r.iterations, 40);
    // The result is the last iterate (not the lowest cost seen) and matches its record.
    EXPECT_EQ(r.point, r.history.back().point);
  }
}

TEST(Optimizers, GradientOnlyLbfgsStopsOnTheStepTolerance) {
  OptimizerOptions options;
  options.kind = OptimizerKind::GradientOnlyLbfgs;
  options.gradientTolerance = 0.0;
  options.stepTolerance = 1e-6;
  const OptimizationResult r = minimize(bowlWithJumps, VecX(Eigen::Vector2d(-1.0, 2.0)), options);
  EXPECT_TRUE(r.converged);
  EXPECT_NE(r.stopReason.find("step below tolerance"), std::string::npos) << r.stopReason;
  EXPECT_LT((r.point - Eigen::Vector2d(1.0, 0.5625)).norm(), 1e-5);
}

TEST(Optimizers, GradientOnlyLbfgsBoundsTheStepAlongACostThatKeepsFalling) {
  // f = -q: every trial still descends; each step is capped at 10 (internal coordinates).
  auto f = [](const VecX& q, VecX& g) {
    g = VecX::Constant(1, -1.0);
    return -q[0];
  };
  OptimizerOptions options;
  options.kind = OptimizerKind::GradientOnlyLbfgs;
  options.maxIterations = 3;
  const OptimizationResult r = minimize(f, VecX::Zero(1), options);
  EXPECT_FALSE(r.converged) << r.stopReason;
  EXPECT_EQ(r.iterations, 3);
  EXPECT_GT(r.point[0], 10.0);
  EXPECT_LE(r.point[0], 30.0 + 1e-12);
  // A zero gradient is a stationary point even with a zero tolerance.
  auto flat = [](const VecX& q, VecX& g) {
    g = VecX::Zero(1);
    return 1.0 + 0.0 * q[0];
  };
  options.gradientTolerance = 0.0;
  const OptimizationResult still = minimize(flat, VecX::Zero(1), options);
  EXPECT_TRUE(still.converged) << still.stopReason;
  EXPECT_EQ(still.point[0], 0.0);
}

TEST(ParameterTransform, RoundTripsAndDerivatives) {
  for (const ParameterTransform t : {ParameterTransform{ParameterTransform::Kind::Log},
                                     ParameterTransform{ParameterTransform::Kind::Logit, 0.0, 0.5},
                                     ParameterTransform{ParameterTransform::Kind::Identity}}) {
    const double p = 0.3;
    const double q = t.toInternal(p);
    EXPECT_NEAR(t.toPhysical(q), p, 1e-15);
    const double h = 1e-6;
    EXPECT_NEAR(t.derivative(q), (t.toPhysical(q + h) - t.toPhysical(q - h)) / (2 * h), 1e-8);
  }
  EXPECT_THROW(ParameterTransform{ParameterTransform::Kind::Log}.toInternal(-1.0), InputError);
  EXPECT_THROW((ParameterTransform{ParameterTransform::Kind::Logit, 0.0, 0.5}.toInternal(0.5)), InputError);
  const TransformSet set = defaultTransforms(parseParameterList("E,nu,gravity_y"));
  VecX p(3);
  p << 2000.0, 0.3, -9.81;
  EXPECT_LT((set.toPhysical(set.toInternal(p)) - p).norm(), 1e-10);
}

}  // namespace
}  // namespace softfit
