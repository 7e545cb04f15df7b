// Interchangeable step solvers (projected Newton clamp/abs/analytic, L-BFGS with the
// Laplacian initial matrix, projective dynamics) reach the same minimizer of one
// incremental-potential step as a tightly converged Newton reference (the comparison
// harness itself is tested in tests/apps/solver_comparison_test.cpp).
#include <gtest/gtest.h>

#include <cmath>

#include "forward/errors.h"
#include "forward/mesh/procedural_box.h"
#include "forward/nonlinear/elastic_laplacian.h"
#include "forward/nonlinear/newton_step_solver.h"
#include "forward/nonlinear/prefactored_step_matrix.h"
#include "forward/solvers/dirichlet_elimination.h"
#include "forward/nonlinear/reference_solution.h"
#include "forward/nonlinear/step_solver_integrator.h"
#include "support/box_model.h"
#include "support/step_scene.h"
#include "support/finite_difference.h"

namespace softfit {
namespace {

using testing::StepScene;
using testing::tight;

double distance(const VecX& x, const ReferenceSolution& ref) { return (x - ref.x).norm() / ref.x.norm(); }

TEST(StepSolvers, AnalyticStableNeoHookeanNewtonReachesTheMinimizer) {
  StepScene scene(MaterialModel::StableNeoHookean);
  StepObjective reference(*scene.model, scene.problem);
  const ReferenceSolution ref = solveReference(reference);
  for (EigenvalueFilter filter : {EigenvalueFilter::Clamp, EigenvalueFilter::Abs, EigenvalueFilter::Adaptive}) {
    StepSolverSettings s = tight(StepSolverType::Newton, filter);
    s.projection.eigensystem = ElementEigensystem::AnalyticStableNeoHookean;
    StepObjective objective(*scene.model, scene.problem, s.projection);
    VecX x = scene.problem.initialGuess;
    const StepSolveResult r = makeStepSolver(s)->solve(objective, x);
    EXPECT_TRUE(r.converged) << eigenvalueFilterName(filter);
    EXPECT_LT(distance(x, ref), 1e-8) << eigenvalueFilterName(filter);
  }
}

TEST(StepSolvers, ProjectiveDynamicsReachesTheNewtonMinimizerForArap) {
  StepScene scene(MaterialModel::ARAP);
  StepObjective objective(*scene.model, scene.problem);
  const ReferenceSolution ref = solveReference(objective);
  VecX x = scene.problem.initialGuess;
  const StepSolveResult r = makeStepSolver(tight(StepSolverType::ProjectiveDynamics))->solve(objective, x);
  EXPECT_TRUE(r.converged);
  EXPECT_LT(distance(x, ref), 1e-8);
  // Local/global decreases G monotonically.
  StepSolverSettings s = tight(StepSolverType::ProjectiveDynamics);
  s.maxIterations = 20;
  s.recordHistory = true;
  x = scene.problem.initialGuess;
  const StepSolveResult h = makeStepSolver(s)->solve(objective, x);
  for (size_t k = 1; k < h.history.size(); ++k) EXPECT_LE(h.history[k].value, h.history[k - 1].value + 1e-12);
}

// Tight PD reaches Newton's minimizer and never increases G (ARAP: full steps, by the
// majorization; corotated: by the line search).
void expectProjectiveDynamicsReachesNewton(StepScene& scene, const char* label) {
  StepObjective objective(*scene.model, scene.problem);
  const ReferenceSolution ref = solveReference(objective);
  ASSERT_GT((ref.x - scene.problem.initialGuess).norm(), 0.05 * ref.x.norm()) << label;  // a real step
  StepSolverSettings s = tight(StepSolverType::ProjectiveDynamics);
  s.recordHistory = true;
  VecX x = scene.problem.initialGuess;
  const StepSolveResult r = makeStepSolver(s)->solve(objective, x);
  EXPECT_TRUE(r.converged) << label;
  EXPECT_LT(distance(x, ref), 1e-8) << label;
  EXPECT_GT(r.iterations, 2) << label;
  for (size_t k = 1; k < r.history.size(); ++k)
    EXPECT_LE(r.history[k].value, r.history[k - 1].value + 1e-12 * std::abs(r.history[k - 1].value)) << label << k;
}

TEST(StepSolvers, ProjectiveDynamicsReachesTheNewtonMinimizerForCorotated) {
  StepScene scene(MaterialModel::Corotated);
  expectProjectiveDynamicsReachesNewton(scene, "corotated");
}

TEST(StepSolvers, ProjectiveDynamicsWithGroundSpringsReachesTheNewtonMinimizer) {
  for (MaterialModel material : {MaterialModel::ARAP, MaterialModel::Corotated}) {
    StepScene scene(material);
    std::vector<int> nodes(scene.model->nodeCount());
    for (int i = 0; i < scene.model->nodeCount(); ++i) nodes[i] = i;
    // The sagging tip reaches y = -0.05 (stiffness 1e4, as the thesis' default).
    scene.model->ground = GroundContact(GroundPlane{Vec3(0, 1, 0), 0.05, 1e4, 100.0}, nodes);
    StepObjective objective(*scene.model, scene.problem);
    const ReferenceSolution ref = solveReference(objective);
    ASSERT_GT(scene.model->ground->maxPenetration(ref.x), 0.0) << materialModelName(material);  // in contact
    expectProjectiveDynamicsReachesNewton(scene, materialModelName(material).c_str());
  }
}

TEST(StepSolvers, ProjectiveDynamicsRejectsNonProjectiveMaterials) {
  StepScene scene(MaterialModel::NeoHookean);
  StepObjective objective(*scene.model, scene.problem);
  VecX x = scene.problem.initialGuess;
  EXPECT_THROW(makeStepSolver(tight(StepSolverType::ProjectiveDynamics))->solve(objective, x), InputError);
}

TEST(StepSolvers, NewtonStopsOnTheScaledDecrementAndReusesTheSymbolicAnalysis) {
  StepScene scene(MaterialModel::NeoHookean);
  StepObjective objective(*scene.model, scene.problem);
  StepSolverSettings loose = tight(StepSolverType::Newton);
  loose.decrementTolerance = 1e-4;
  NewtonStepSolver solver(loose);
  VecX x = scene.problem.initialGuess;
  const StepSolveResult r = solver.solve(objective, x);
  EXPECT_TRUE(r.converged);
  EXPECT_LE(r.decrement, 1e-4 * decrementScale(*scene.model, scene.problem));
  VecX y = scene.problem.initialGuess;
  const StepSolveResult full = NewtonStepSolver(tight(StepSolverType::Newton)).solve(objective, y);
  EXPECT_LT(r.iterations, full.iterations);
  for (int k = 0; k < 2; ++k) {
    x = scene.problem.initialGuess;
    solver.solve(objective, x);
  }
  EXPECT_EQ(solver.symbolicAnalyses(), 1);
  EXPECT_GE(r.factorizations, r.iterations);
}

TEST(StepSolvers, ObjectiveDerivativesMatchFiniteDifferences) {
  StepScene scene(MaterialModel::StableNeoHookean, IntegratorType::ImplicitMidpoint, 0.01);
  StepObjective objective(*scene.model, scene.problem);
  VecX x = scene.problem.initialGuess;
  for (int i = 0; i < x.size(); ++i) x[i] += 0.02 * std::sin(1.7 * i);
  VecX g;
  objective.gradient(x, g);
  const VecX fd = testing::centralGradient([&](const VecX& v) { return objective.value(v); }, x, 1e-6);
  EXPECT_LT(testing::relativeError(g, fd), 1e-6);
  SparseMatrix H = objective.hessianPattern();
  objective.hessian(x, H, HessianKind::Exact);
  const MatX J = testing::centralJacobian(
      [&](const VecX& v) {
        VecX gv;
        objective.gradient(v, gv);
        return gv;
      },
      x, 1e-6);
  EXPECT_LT(testing::relativeError(MatX(H), J), 1e-6);
}

TEST(StepSolvers, ValueAndGradientInOnePassEqualsSeparateCalls) {
  StepScene scene(MaterialModel::StableNeoHookean, IntegratorType::ImplicitMidpoint, 0.01);
  scene.model->ground = GroundContact(GroundPlane{Vec3(0, 1, 0), 0.1, 1e4, 100.0}, {0, 1, 2, 3});
  StepObjective objective(*scene.model, scene.problem);
  VecX x = scene.problem.initialGuess;
  for (int i = 0; i < x.size(); ++i) x[i] += 0.02 * std::sin(1.7 * i);
  VecX g, fused;
  objective.gradient(x, g);
  EXPECT_EQ(objective.valueAndGradient(x, fused), objective.value(x));
  EXPECT_EQ(fused, g);
}

// Without Rayleigh stiffness damping, M + c D + w (L + springs) with a node-wise Dirichlet
// mask is S kron I3: the scalar factorization must solve exactly like the full one.
TEST(StepSolvers, PrefactoredMatrixSolvesTheNodeScalarSystemLikeTheFullOne) {
  for (double alpha2 : {0.0, 0.01}) {
    StepScene scene(MaterialModel::NeoHookean, IntegratorType::BackwardEuler, alpha2);
    StepObjective objective(*scene.model, scene.problem);
    PrefactoredStepMatrix matrix;
    ASSERT_TRUE(matrix.prepare(objective, 1.0));
    EXPECT_EQ(matrix.scalar(), alpha2 == 0.0) << alpha2;
    SparseMatrix A = objective.constantHessian(elasticLaplacian(*scene.model));
    VecX unused = VecX::Zero(A.rows());
    eliminateDirichlet(A, unused, scene.problem.fixed, VecX::Zero(A.rows()));
    VecX r(A.rows());
    for (int i = 0; i < r.size(); ++i) r[i] = scene.problem.fixed[i] ? 0.0 : std::cos(0.3 * i);
    const VecX x = matrix.solve(r);
    EXPECT_LT((A * x - r).norm(), 1e-12 * r.norm()) << alpha2;
  }
}

TEST(StepSolvers, IntegratorWithLbfgsFollowsTheNewtonIntegrator) {
  StepScene scene(MaterialModel::NeoHookean);
  IntegratorSettings settings;
  settings.newton.stepTolerance = 1e-13;
  IncrementalPotentialIntegrator newton(settings);
  StepSolverSettings solver = tight(StepSolverType::Lbfgs);
  solver.decrementTolerance = 1e-18;  // a strain of 1e-9; tighter sits at the gradient's round-off
  StepSolverIntegrator lbfgs(settings, solver);
  State a = scene.current, b = scene.current;
  for (int k = 0; k < 3; ++k) {
    a = newton.step(*scene.model, a, nullptr, 0.05);
    b = lbfgs.step(*scene.model, b, nullptr, 0.05);
  }
  EXPECT_LT((a.x - b.x).norm(), 1e-8 * a.x.norm());
  EXPECT_LT((a.v - b.v).norm(), 1e-6 * a.v.norm());
  EXPECT_GT(lbfgs.lastStep().iterations, 0);
}

TEST(StepSolvers, ParseNamesAndRejectUnknownOnes) {
  EXPECT_EQ(parseStepSolverType("lbfgs", "solver"), StepSolverType::Lbfgs);
  EXPECT_EQ(parseStepSolverType(stepSolverTypeName(StepSolverType::ProjectiveDynamics), "solver"),
            StepSolverType::ProjectiveDynamics);
  EXPECT_THROW(parseStepSolverType("gauss", "solver.type"), InputError);
  EXPECT_EQ(parseElementEigensystem("analytic", "e"), ElementEigensystem::AnalyticStableNeoHookean);
  EXPECT_THROW(parseElementEigensystem("svd", "solver.eigensystem"), InputError);
}

}  // namespace
}  // namespace softfit
