// StepObjective, the one incremental potential G(x) of every solver path: every term of
// PhysicalModel's potential reaches its value, gradient and Hessian on both element
// eigensystems (numeric, analytic stable neo-Hookean), and the projected-Newton
// integrator, a step solver's problem and the adjoint see the same G.
//
// A new energy term of PhysicalModel must be switched on in everyTermModel() below; the
// split test then fails unless the term is in externalEnergy / addExternalGradient /
// addExternalHessian, which every solver path uses.
#include <gtest/gtest.h>

#include "forward/errors.h"
#include "forward/integrators/step_problem.h"
#include "forward/mesh/procedural_box.h"
#include "support/box_model.h"
#include "support/finite_difference.h"

namespace softfit {
namespace {

struct EveryTermScene {
  TetMesh mesh = makeBoxMesh(Vec3(0.0, -0.08, 0.0), Vec3(1.0, 0.3, 0.3), 2, 1, 1);
  std::unique_ptr<PhysicalModel> model;
  State current;

  // Stable neo-Hookean (so the analytic eigensystem applies), gravity, ground contact
  // with nodes below and near the plane, attachment springs, Rayleigh damping.
  EveryTermScene() {
    model = testing::makeBoxModel(mesh, MaterialModel::StableNeoHookean, 2e4, 0.35, 500);
    model->gravity = Vec3(0.4, -9.81, 0.2);
    GroundPlane plane;
    plane.normal = Vec3(0.05, 1.0, 0.0).normalized();
    plane.stiffness = 1e4;
    plane.sharpness = 50.0;
    std::vector<int> all(model->nodeCount());
    for (int i = 0; i < model->nodeCount(); ++i) all[i] = i;
    model->ground = GroundContact(plane, all);
    model->attachments = AttachmentSprings({{0, Vec3(-0.05, 0.0, 0.02), 300.0}, {5, Vec3(1.1, 0.4, 0.3), 150.0}});
    model->damping = {0.3, 0.004};
    current.x = model->restPositions();
    current.v = VecX::Zero(current.x.size());
    for (int i = 0; i < model->nodeCount(); ++i) current.v.segment<3>(3 * i) = Vec3(0.5, -1.0, 0.1 * i);
  }
};

// A deformed point away from the rest shape and from any symmetry.
VecX deformed(const VecX& x0) {
  VecX x = x0;
  for (int i = 0; i < x.size(); ++i) x[i] += 0.03 * std::sin(1.7 * i + 0.3);
  return x;
}

SparseMatrix exactHessian(StepObjective& objective, const VecX& x) {
  SparseMatrix H = objective.hessianPattern();
  objective.hessian(x, H, HessianKind::Exact);
  return H;
}

TEST(StepProblem, SceneActivatesEveryExternalTerm) {
  // Each term changes the external gradient, so the tests below cover it.
  const auto externalGradient = [](const EveryTermScene& s, const VecX& x) {
    VecX g = VecX::Zero(x.size());
    s.model->addExternalGradient(x, g);
    return g;
  };
  EveryTermScene full, noGravity, noGround, noSprings;
  const VecX x = deformed(full.model->restPositions());
  noGravity.model->gravity = Vec3::Zero();
  noGround.model->ground.reset();
  noSprings.model->attachments = AttachmentSprings();
  const VecX all = externalGradient(full, x);
  for (const EveryTermScene* s : {&noGravity, &noGround, &noSprings})
    EXPECT_GT((externalGradient(*s, x) - all).norm(), 1e-3 * all.norm());
  EXPECT_GT(full.model->ground->maxPenetration(x), 0.0);  // in contact
}

TEST(StepProblem, PotentialIsElasticPlusExternalInValueGradientAndHessian) {
  EveryTermScene s;
  const PhysicalModel& m = *s.model;
  const VecX x = deformed(m.restPositions());
  EXPECT_NEAR(m.potentialEnergy(x), m.elastic().energy(x) + m.externalEnergy(x), 1e-12 * std::abs(m.potentialEnergy(x)));

  VecX g = VecX::Zero(x.size()), split = VecX::Zero(x.size());
  m.addPotentialGradient(x, g);
  m.elastic().addGradient(x, split);
  m.addExternalGradient(x, split);
  EXPECT_LT(testing::relativeError(g, split), 1e-14);

  SparseMatrix H = m.pattern().zeroMatrix(), Hsplit = m.pattern().zeroMatrix();
  BlockAssembler a(m.pattern(), H), b(m.pattern(), Hsplit);
  m.addPotentialHessian(x, a, EigenvalueFilter::None, 0.0);
  m.elastic().addHessian(x, b, EigenvalueFilter::None, 0.0);
  m.addExternalHessian(x, b);
  EXPECT_LT(testing::relativeError(MatX(H), MatX(Hsplit)), 1e-14);

  // The external trio is consistent: gradient and Hessian match finite differences.
  const auto externalValue = [&](const VecX& y) { return m.externalEnergy(y); };
  VecX ge = VecX::Zero(x.size());
  m.addExternalGradient(x, ge);
  EXPECT_LT(testing::relativeError(ge, testing::centralGradient(externalValue, x, 1e-6)), 1e-6);
  SparseMatrix He = m.pattern().zeroMatrix();
  BlockAssembler e(m.pattern(), He);
  m.addExternalHessian(x, e);
  const auto externalGradientOf = [&](const VecX& y) {
    VecX out = VecX::Zero(y.size());
    m.addExternalGradient(y, out);
    return out;
  };
  EXPECT_LT(testing::relativeError(MatX(He), testing::centralJacobian(externalGradientOf, x, 1e-6)), 1e-6);
}

class StepObjectiveEveryPath : public ::testing::TestWithParam<std::tuple<IntegratorType, ElementEigensystem>> {};

TEST_P(StepObjectiveEveryPath, GradientAndExactHessianMatchFiniteDifferences) {
  const auto [scheme, eigensystem] = GetParam();
  EveryTermScene s;
  const StepProblem problem = makeStepProblem(*s.model, scheme, s.current, nullptr, 0.02);
  ASSERT_GT(problem.damping.rows(), 0);
  StepObjective objective(*s.model, problem, {EigenvalueFilter::Clamp, 0.0, eigensystem});
  const VecX x = deformed(problem.initialGuess);

  VecX g;
  objective.gradient(x, g);
  const auto value = [&](const VecX& y) { return objective.value(y); };
  EXPECT_LT(testing::relativeError(g, testing::centralGradient(value, x, 1e-6)), 1e-7);
  VecX g2;
  EXPECT_EQ(objective.valueAndGradient(x, g2), objective.value(x));
  EXPECT_EQ(g2, g);

  const auto gradientOf = [&](const VecX& y) {
    VecX out;
    objective.gradient(y, out);
    return out;
  };
  EXPECT_LT(testing::relativeError(MatX(exactHessian(objective, x)), testing::centralJacobian(gradientOf, x, 1e-6)),
            1e-6);
}

INSTANTIATE_TEST_SUITE_P(
    SchemesAndEigensystems, StepObjectiveEveryPath,
    ::testing::Combine(::testing::Values(IntegratorType::BackwardEuler, IntegratorType::BDF2,
                                         IntegratorType::ImplicitMidpoint, IntegratorType::NewmarkTrapezoid),
                       ::testing::Values(ElementEigensystem::Numeric, ElementEigensystem::AnalyticStableNeoHookean)));

class StepObjectiveEveryScheme : public ::testing::TestWithParam<IntegratorType> {};

TEST_P(StepObjectiveEveryScheme, BothEigensystemsGiveTheSameExactHessian) {
  EveryTermScene s;
  const StepProblem problem = makeStepProblem(*s.model, GetParam(), s.current, nullptr, 0.02);
  StepObjective numeric(*s.model, problem, {EigenvalueFilter::Clamp, 0.0, ElementEigensystem::Numeric});
  StepObjective analytic(*s.model, problem, {EigenvalueFilter::Clamp, 0.0, ElementEigensystem::AnalyticStableNeoHookean});
  const VecX x = deformed(problem.initialGuess);
  EXPECT_LT(testing::relativeError(MatX(exactHessian(numeric, x)), MatX(exactHessian(analytic, x))), 1e-10);
}

INSTANTIATE_TEST_SUITE_P(Schemes, StepObjectiveEveryScheme,
                         ::testing::Values(IntegratorType::BackwardEuler, IntegratorType::BDF2,
                                           IntegratorType::ImplicitMidpoint, IntegratorType::NewmarkTrapezoid));

TEST(StepProblem, ObjectiveFromPartsEqualsObjectiveFromTheProblem) {
  // The schemes of forward/schemes build G from coefficients; the integrators and step
  // solvers from a StepProblem. Same G, same bits.
  EveryTermScene s;
  const StepProblem problem = makeStepProblem(*s.model, IntegratorType::BackwardEuler, s.current, nullptr, 0.02);
  StepObjective fromProblem(*s.model, problem, {EigenvalueFilter::Abs, 0.0});
  StepObjective fromParts(*s.model, problem.coefficients, problem.damping, problem.dt, {EigenvalueFilter::Abs, 0.0});
  const VecX x = deformed(problem.initialGuess);
  EXPECT_EQ(fromProblem.value(x), fromParts.value(x));
  SparseMatrix A = fromProblem.hessianPattern(), B = fromParts.hessianPattern();
  fromProblem.hessian(x, A, HessianKind::Filtered);
  fromParts.hessian(x, B, HessianKind::Filtered);
  EXPECT_EQ(MatX(A), MatX(B));
  EXPECT_EQ(fromProblem.energyHessianWeight(), problem.energyHessianWeight());
  EXPECT_THROW(fromParts.problem(), std::logic_error);
}

TEST(StepProblem, AnalyticEigensystemNeedsStableNeoHookean) {
  TetMesh mesh = makeBoxMesh(Vec3::Zero(), Vec3::Ones(), 1, 1, 1);
  const auto corotated = testing::makeBoxModel(mesh, MaterialModel::Corotated, 1e4, 0.3, 100);
  State rest;
  rest.x = corotated->restPositions();
  rest.v = VecX::Zero(corotated->dofCount());
  const StepProblem problem = makeStepProblem(*corotated, IntegratorType::BackwardEuler, rest, nullptr, 0.01);
  const HessianProjection analytic{EigenvalueFilter::Clamp, 0.0, ElementEigensystem::AnalyticStableNeoHookean};
  EXPECT_THROW(StepObjective(*corotated, problem, analytic), InputError);
}

}  // namespace
}  // namespace softfit
