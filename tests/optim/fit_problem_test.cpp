// FitProblem borrows the model only while it simulates: an evaluation leaves the
// caller's model as it was, bit for bit, also when it throws, and a copy of the problem
// repeats the evaluations of the original bit for bit.
#include "optim/fit_problem.h"

#include <gtest/gtest.h>

#include <cstring>
#include <stdexcept>

#include "forward/errors.h"
#include "support/box_model.h"

namespace softfit {
namespace {

// 1/2 |x - target|^2 summed over the steps.
class DistanceLoss final : public TrajectoryLoss {
 public:
  explicit DistanceLoss(VecX target) : target_(std::move(target)) {}
  double evaluate(int, const State& s, VecX& gx, VecX&) override {
    const VecX d = s.x - target_;
    gx += d;
    return 0.5 * d.squaredNorm();
  }
  bool hasResiduals() const override { return residualForm; }
  void appendResiduals(int, const State& s, std::vector<double>& r) const override {
    for (Eigen::Index i = 0; i < s.x.size(); ++i) r.push_back(s.x[i] - target_[i]);
  }
  bool residualForm = true;

 private:
  VecX target_;
};

bool sameBits(const VecX& a, const VecX& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), sizeof(double) * a.size()) == 0;
}

bool sameLame(const PhysicalModel& a, const std::vector<LameParameters>& lame) {
  const auto& p = a.elastic().parameters();
  if (p.size() != lame.size()) return false;
  for (size_t e = 0; e < p.size(); ++e)
    if (std::memcmp(&p[e], &lame[e], sizeof(LameParameters)) != 0) return false;
  return true;
}

struct Scene {
  TetMesh mesh = makeBoxMesh(Vec3(0, 0, 0), Vec3(1, 0.2, 0.2), 4, 1, 1);
  std::unique_ptr<PhysicalModel> model = testing::makeBoxModel(mesh, MaterialModel::Corotated, 2000.0, 0.3, 1.0);
  DistanceLoss loss{mesh.restPositions()};
  FitProblem problem() {
    model->gravity = Vec3(0, -10, 0);
    model->damping = {0.1, 0.01};
    testing::clampNodesBelowX(*model, mesh, 1e-9);
    IntegratorSettings integrator;
    integrator.type = IntegratorType::BackwardEuler;
    const std::vector<Parameter> kinds = parseParameterList("E,nu,density,alpha1");
    FitSetup setup{{model.get(), integrator, 0.01, 5, restState(*model)}, &loss, {}};
    return FitProblem(setup, ParameterSpace(kinds, {}), defaultTransforms(kinds));
  }
};

TEST(FitProblem, EvaluationLeavesTheModelAsItWas) {
  Scene s;
  FitProblem problem = s.problem();
  const std::vector<LameParameters> lame = s.model->elastic().parameters();
  const VecX density = s.model->density(), mass = s.model->mass();
  const RayleighDamping damping = s.model->damping;
  VecX gradient;
  const VecX q = problem.toInternal((VecX(4) << 2500.0, 0.35, 1.3, 0.15).finished());
  const FitProblem before = problem;
  const double cost = problem.evaluate(q, gradient);
  EXPECT_GT(cost, 0.0);
  EXPECT_GT(gradient.norm(), 0.0);
  EXPECT_TRUE(sameLame(*s.model, lame));
  EXPECT_TRUE(sameBits(s.model->density(), density));
  EXPECT_TRUE(sameBits(s.model->mass(), mass));
  EXPECT_EQ(s.model->damping.alpha1, damping.alpha1);
  // The problem's own values moved to q.
  EXPECT_FALSE(sameBits(problem.parameterValues().density, density));
  EXPECT_EQ(problem.parameterValues().damping.alpha1, problem.toPhysical(q)[3]);
  // The forward pass alone leaves the model as it was too (its value sums the steps in
  // forward order, the reverse pass' in reverse order: the same up to rounding).
  FitProblem again = before;
  EXPECT_NEAR(again.cost(q), cost, 1e-12 * cost);
  EXPECT_TRUE(sameLame(*s.model, lame));

  // Also when the run throws, and while it runs the model is at the asked values.
  EXPECT_THROW(problem.runAt(problem.toPhysical(q), [&](const TrajectorySetup& t) {
    EXPECT_EQ(t.model, s.model.get());
    EXPECT_EQ(t.model->damping.alpha1, problem.toPhysical(q)[3]);
    EXPECT_FALSE(sameLame(*t.model, lame));
    throw std::runtime_error("stop");
  }), std::runtime_error);
  EXPECT_TRUE(sameLame(*s.model, lame));
  EXPECT_TRUE(sameBits(s.model->mass(), mass));
  EXPECT_EQ(s.model->damping.alpha1, damping.alpha1);
}

TEST(FitProblem, ResidualsAreTheForwardPassOfALeastSquaresLoss) {
  Scene s;
  FitProblem problem = s.problem();
  const std::vector<LameParameters> lame = s.model->elastic().parameters();
  const VecX q = problem.toInternal((VecX(4) << 2500.0, 0.35, 1.3, 0.15).finished());
  ASSERT_TRUE(problem.hasResiduals());
  const VecX r = problem.residualFunction()(q);
  EXPECT_EQ(r.size(), 6 * s.model->dofCount());  // the initial state and 5 steps
  const double cost = problem.cost(q);
  EXPECT_GT(cost, 0.0);
  EXPECT_NEAR(0.5 * r.squaredNorm(), cost, 1e-12 * cost);
  EXPECT_TRUE(sameLame(*s.model, lame));
  // Another parameter value, another trajectory.
  EXPECT_GT((problem.residuals(problem.toInternal((VecX(4) << 1800.0, 0.3, 1.0, 0.1).finished())) - r).norm(), 0.0);
  s.loss.residualForm = false;
  EXPECT_FALSE(problem.hasResiduals());
  EXPECT_FALSE(problem.residualFunction());
  EXPECT_THROW(problem.residuals(q), InputError);
}

TEST(FitProblem, ACopyRepeatsTheEvaluationsBitForBit) {
  Scene s;
  FitProblem problem = s.problem();
  VecX g1, g2, g3;
  const VecX a = problem.toInternal((VecX(4) << 2500.0, 0.35, 1.3, 0.15).finished());
  const VecX b = problem.toInternal((VecX(4) << 1800.0, 0.28, 0.9, 0.05).finished());
  problem.evaluate(a, g1);
  const FitProblem copy = problem;
  const double f = problem.evaluate(b, g2);
  // The caller changing the model's parameter values in between does not reach the
  // copy's evaluation (the problem simulates with its own).
  s.model->gravity = Vec3(0, 5, 0);
  FitProblem again = copy;
  const double h = again.evaluate(b, g3);
  EXPECT_EQ(f, h);
  EXPECT_TRUE(sameBits(g2, g3));
  EXPECT_EQ(s.model->gravity, Vec3(0, 5, 0));
}

}  // namespace
}  // namespace softfit
