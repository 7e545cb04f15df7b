// Fit uncertainties: on a clamped beam swinging under gravity, observed with Gaussian
// noise of known sigma, the Gauss-Newton standard errors match the spread of 40 fits of
// independent noise draws; they match sigma^2 (J^T J)^-1 from an independent
// central-difference J; errors shared by a frame's points widen them (the frame-clustered
// estimate); a parameter the observations do not see gets an unbounded one and a
// warning; the relative-error warning only for positive parameters.
#include "optim/fit_uncertainty.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

#include "adjoint/trajectory_gradient.h"
#include "support/box_model.h"

namespace softfit {
namespace {

// 1/2 |x - target_k|^2 over the observed steps and coordinates (the first
// target_k.size() of x), each residual weighted by `scale`.
class NoisyPositionLoss final : public TrajectoryLoss {
 public:
  std::vector<VecX> targets;  // per step (empty: not observed)
  double scale = 1.0;
  double evaluate(int k, const State& s, VecX& gx, VecX&) override {
    const Eigen::Index n = targets[k].size();  // the first n coordinates are observed
    if (n == 0) return 0.0;
    const VecX d = s.x.head(n) - targets[k];
    gx.head(n) += scale * scale * d;
    return 0.5 * scale * scale * d.squaredNorm();
  }
  bool hasResiduals() const override { return true; }
  void appendResiduals(int k, const State& s, std::vector<double>& r) const override {
    for (Eigen::Index i = 0; i < targets[k].size(); ++i) r.push_back(scale * (s.x[i] - targets[k][i]));
  }
  bool appendResidualScales(int k, std::vector<double>& c) const override {
    c.insert(c.end(), targets[k].size(), scale);
    return true;
  }
};

constexpr int kSteps = 6;
constexpr double kSigma = 2e-4;

struct Beam {
  TetMesh mesh = makeBoxMesh(Vec3(0, 0, 0), Vec3(1, 0.2, 0.2), 4, 1, 1);
  std::unique_ptr<PhysicalModel> model = testing::makeBoxModel(mesh, MaterialModel::Corotated, 2000.0, 0.3, 1.0);
  NoisyPositionLoss loss;
  std::vector<Parameter> kinds = parseParameterList("E,alpha1");
  IntegratorSettings integrator;

  Beam() {
    model->gravity = Vec3(0, -10, 0);
    model->damping = {0.5, 0.0};
    testing::clampNodesBelowX(*model, mesh, 1e-9);
    integrator.type = IntegratorType::BackwardEuler;
    // The true trajectory.
    const Trajectory truth = simulate({model.get(), integrator, 0.02, kSteps, restState(*model)}, true);
    loss.targets.assign(kSteps + 1, VecX());
    for (int k = 1; k <= kSteps; ++k) loss.targets[k] = truth.states[k].x;
  }
  FitProblem problem() {
    FitSetup setup{{model.get(), integrator, 0.02, kSteps, restState(*model)}, &loss, {}};
    return FitProblem(setup, ParameterSpace(kinds, {}), defaultTransforms(kinds));
  }
  void addNoise(unsigned seed, const std::vector<VecX>& clean) {
    std::mt19937_64 rng(seed);
    std::normal_distribution<double> n(0.0, kSigma);
    for (int k = 1; k <= kSteps; ++k)
      for (Eigen::Index i = 0; i < clean[k].size(); ++i) loss.targets[k][i] = clean[k][i] + n(rng);
  }
};

TEST(FitUncertainty, StandardErrorsMatchTheSpreadOfRepeatedFits) {
  Beam beam;
  const std::vector<VecX> clean = beam.loss.targets;
  const VecX truth = (VecX(2) << 2000.0, 0.5).finished();
  std::vector<VecX> estimates;
  VecX predicted;
  for (unsigned seed = 1; seed <= 40; ++seed) {
    beam.addNoise(seed, clean);
    FitProblem problem = beam.problem();
    OptimizerOptions o;
    o.maxIterations = 200;
    const OptimizationResult r = minimize(problem.objective(), problem.toInternal(truth), o);
    ASSERT_FALSE(r.solveFailed);
    estimates.push_back(problem.toPhysical(r.point));
    if (seed == 1) {
      const FitUncertainty u = fitUncertainty(problem, r.point, kSigma);
      ASSERT_TRUE(u.available) << u.unavailable;
      predicted = u.standardError;
      EXPECT_NEAR(u.residualRms, kSigma, 0.15 * kSigma);  // the noise, seen in the residuals
      EXPECT_EQ(u.forwardRuns, 3);
      EXPECT_NEAR(u.correlation(0, 1), u.correlation(1, 0), 1e-12);
      EXPECT_DOUBLE_EQ(u.correlation(0, 0), 1.0);
    }
  }
  VecX mean = VecX::Zero(2);
  for (const VecX& e : estimates) mean += e / estimates.size();
  VecX spread = VecX::Zero(2);
  for (const VecX& e : estimates) spread += (e - mean).cwiseAbs2() / (estimates.size() - 1);
  spread = spread.cwiseSqrt();
  for (int i = 0; i < 2; ++i) {
    // 40 draws: the sample standard deviation is within about +-25% of the truth (2 sigma).
    EXPECT_GT(predicted[i], 0.7 * spread[i]) << i << ": " << predicted[i] << " vs " << spread[i];
    EXPECT_LT(predicted[i], 1.3 * spread[i]) << i << ": " << predicted[i] << " vs " << spread[i];
  }
}

TEST(FitUncertainty, IsSigmaSquaredTimesTheInverseGaussNewtonMatrix) {
  Beam beam;
  beam.addNoise(3, beam.loss.targets);
  beam.loss.scale = 3.0;  // weights scale J and the residuals alike: the errors do not change
  FitProblem problem = beam.problem();
  const VecX q = problem.toInternal((VecX(2) << 2100.0, 0.45).finished());
  const FitUncertainty u = fitUncertainty(problem, q, 10.0 * kSigma);  // noise above the residual RMS
  ASSERT_TRUE(u.available);
  EXPECT_DOUBLE_EQ(u.sigma, 10.0 * kSigma);
  // J in physical coordinates by central differences, independently of the code above.
  const VecX p = problem.toPhysical(q);
  MatX j(problem.residuals(q).size(), 2);
  for (int i = 0; i < 2; ++i) {
    const double h = 1e-5 * std::abs(p[i]);
    VecX a = p, b = p;
    a[i] += h;
    b[i] -= h;
    j.col(i) = (problem.residuals(problem.toInternal(a)) - problem.residuals(problem.toInternal(b))) / (2 * h);
  }
  const MatX c = std::pow(10.0 * kSigma * beam.loss.scale, 2) * (j.transpose() * j).inverse();
  for (int i = 0; i < 2; ++i) EXPECT_NEAR(u.standardError[i], std::sqrt(c(i, i)), 0.01 * std::sqrt(c(i, i))) << i;
  EXPECT_NEAR(u.correlation(0, 1), c(0, 1) / std::sqrt(c(0, 0) * c(1, 1)), 0.01);
  // Twice the noise, twice the standard errors.
  const FitUncertainty twice = fitUncertainty(problem, q, 20.0 * kSigma);
  for (int i = 0; i < 2; ++i) EXPECT_NEAR(twice.standardError[i], 2.0 * u.standardError[i], 1e-9 * u.standardError[i]);
}

TEST(FitUncertainty, ErrorsSharedWithinAFrameWidenTheStandardErrors) {
  Beam beam;
  beam.kinds = parseParameterList("E");  // 6 frames >= 4 per parameter: the clustered estimate is taken
  const std::vector<VecX> clean = beam.loss.targets;
  beam.addNoise(5, clean);
  FitProblem independent = beam.problem();
  const VecX q = independent.toInternal((VecX(1) << 2000.0).finished());
  const FitUncertainty plain = fitUncertainty(independent, q, kSigma);
  ASSERT_TRUE(plain.available);
  EXPECT_TRUE(plain.clustered);
  EXPECT_EQ(plain.frames, kSteps);
  // Each frame's points shifted together by 20 sigma along y (a shape error every point
  // of the frame shares): the frame-clustered estimate takes over and is larger.
  std::mt19937_64 rng(9);
  std::normal_distribution<double> shift(0.0, 20.0 * kSigma);
  for (int k = 1; k <= kSteps; ++k) {
    const double dy = shift(rng);
    for (Eigen::Index i = 1; i < beam.loss.targets[k].size(); i += 3) beam.loss.targets[k][i] += dy;
  }
  FitProblem shared = beam.problem();
  const FitUncertainty wide = fitUncertainty(shared, q, kSigma);
  ASSERT_TRUE(wide.available);
  EXPECT_TRUE(wide.clusterDominated);
  EXPECT_GT(wide.standardError[0], 3.0 * plain.standardError[0]);
}

TEST(FitUncertainty, WhatTheObservationsDoNotSeeIsNotDetermined) {
  Beam beam;
  // Only node 0 observed, which is clamped: no parameter changes a residual.
  for (int k = 1; k <= kSteps; ++k) beam.loss.targets[k] = beam.loss.targets[k].head(3).eval();
  FitProblem problem = beam.problem();
  const VecX p = (VecX(2) << 2000.0, 0.5).finished();
  const FitUncertainty u = fitUncertainty(problem, problem.toInternal(p), kSigma);
  ASSERT_TRUE(u.available) << u.unavailable;
  EXPECT_TRUE(std::isinf(u.standardError[0]));
  EXPECT_TRUE(std::isinf(u.standardError[1]));
  EXPECT_TRUE(std::isnan(u.correlation(0, 1)));
  const std::vector<std::string> w = uncertaintyWarnings({"E", "alpha1"}, p, problem.transforms(), u);
  ASSERT_EQ(w.size(), 2u);
  EXPECT_NE(w[0].find("E = 2000 is not determined by the observations"), std::string::npos) << w[0];
  // No least-squares form, or no more observations than parameters: not available, and why.
  for (int k = 1; k <= kSteps; ++k) beam.loss.targets[k] = k == 1 ? beam.loss.targets[k].head(2).eval() : VecX();
  FitProblem tiny = beam.problem();
  const FitUncertainty few = fitUncertainty(tiny, tiny.toInternal(p), kSigma);
  EXPECT_FALSE(few.available);
  EXPECT_EQ(few.unavailable, "2 observations for 2 parameters");
}

TEST(FitUncertainty, WarnsForUnidentifiedParameters) {
  const std::vector<std::string> names{"E", "velocity_x", "alpha1"};
  const TransformSet transforms = defaultTransforms(parseParameterList("E,velocity_x,alpha1"));
  FitUncertainty u;
  u.available = true;
  u.standardError = (VecX(3) << 3000.0, 0.9, std::numeric_limits<double>::infinity()).finished();
  const VecX values = (VecX(3) << 5000.0, 0.01, 0.1).finished();
  std::vector<std::string> w = uncertaintyWarnings(names, values, transforms, u);
  // E: 60% > 50%; velocity_x near 0 with a larger error is no warning (a signed value);
  // alpha1: unbounded.
  ASSERT_EQ(w.size(), 2u);
  EXPECT_NE(w[0].find("E = 5000 has a standard error of 3000 (60% of its value)"), std::string::npos) << w[0];
  EXPECT_NE(w[1].find("alpha1 = 0.1 is not determined"), std::string::npos) << w[1];
  u.standardError[0] = 2000.0;  // 40%: fine
  EXPECT_EQ(uncertaintyWarnings(names, values, transforms, u).size(), 1u);
  u.available = false;
  EXPECT_TRUE(uncertaintyWarnings(names, values, transforms, u).empty());
}

}  // namespace
}  // namespace softfit
