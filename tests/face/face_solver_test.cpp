#include "face/face_solver.h"

#include <gtest/gtest.h>

#include <stdexcept>

#include <cstdio>
#include <limits>

#include "face/activation_gauss_newton.h"
#include "face/expression_objective.h"
#include "face/per_tet_gauss_newton.h"
#include "face/synthetic_face.h"
#include "face_test_support.h"
#include "forward/energies/elastic_energy.h"
#include "support/finite_difference.h"

namespace softfit::face {
namespace {

using softfit::testing::centralGradient;
using softfit::testing::centralJacobian;
using softfit::testing::relativeError;
using testing::makeBarFace;
using testing::Uniform;

std::vector<Vec6> randomTetActivations(const FaceModel& m, Uniform& u) {
  std::vector<Vec6> a;
  for (int t = 0; t < m.tetCount(); ++t) a.push_back(testing::randomActivation(u, 0.15));
  return a;
}

// A jaw pose away from rest in all five of its dofs.
JawPose openJaw() {
  JawPose pose;
  pose << 0.05, -0.03, 0.01, 0.02, -0.01;
  return pose;
}

// Newton tight enough that finite differences of re-solved equilibria resolve 1e-6.
NewtonOptions tightNewton() {
  NewtonOptions o = FaceSolver::defaultOptions();
  o.stepTolerance = 1e-13;
  o.exactHessianBelow = 1e5;  // full exact steps from 1e-8 on
  return o;
}

// Nodes first, first + stride, ... with targets at their rest positions moved by up to 0.05.
FaceTarget perturbedTarget(const FaceModel& m, Uniform& u, int first, int stride) {
  FaceTarget target;
  for (int n = first; n < m.nodeCount(); n += stride) target.nodes.push_back(n);
  target.points.resize(target.nodes.size(), 3);
  for (std::size_t k = 0; k < target.nodes.size(); ++k)
    target.points.row(k) = m.mesh.vertices.row(target.nodes[k]) + 0.05 * Eigen::RowVector3d(u(), u(), u());
  return target;
}

// The bar's boundary triangles, vertices moved by up to 0.04 (a scan of a nearby shape).
TriangleSurface perturbedBoundary(const FaceModel& m, Uniform& u) {
  TriangleSurface scan;
  scan.vertices = m.mesh.vertices;
  for (Eigen::Index i = 0; i < scan.vertices.rows(); ++i)
    scan.vertices.row(i) += 0.04 * Eigen::RowVector3d(u(), u(), u());
  scan.triangles = boundaryFaces(m.mesh);
  return scan;
}

TEST(FacePotential, GradientAndExactHessianMatchFiniteDifferences) {
  FaceModel m = makeBarFace(false);
  m.plasticScale = VecX::Constant(m.tetCount(), 1.0);
  m.plasticScale[3] = 1.2;
  Uniform u(1);
  FacePotential potential(m);
  potential.setActivations(randomTetActivations(m, u));
  VecX x = m.mesh.restPositions();
  for (int i = 0; i < x.size(); ++i) x[i] += 0.1 * u();
  VecX g;
  potential.gradient(x, g);
  const auto f = [&](const VecX& y) { return potential.value(y); };
  EXPECT_LT(relativeError(g, centralGradient(f, x, 1e-6)), 1e-7);
  SparseMatrix H = potential.hessianPattern();
  potential.hessian(x, H, HessianKind::Exact);
  const auto grad = [&](const VecX& y) -> VecX {
    VecX gy;
    potential.gradient(y, gy);
    return gy;
  };
  EXPECT_LT(relativeError(MatX(H), centralJacobian(grad, x, 1e-6)), 1e-6);
  // Both in one pass, the polar decompositions too (a potential without them cached):
  // the same bits.
  FacePotential fresh(m);
  fresh.setActivations(potential.activations());
  VecX g2;
  SparseMatrix H2 = fresh.hessianPattern();
  fresh.gradientAndHessian(x, g2, H2, HessianKind::Exact);
  EXPECT_EQ(g2, g);
  EXPECT_EQ(MatX(H2), MatX(H));
  const VecX v = VecX::Random(x.size());
  const VecX Hv = potential.exactHessianProduct(x, v);
  EXPECT_LT(relativeError(Hv, H * v), 1e-12);
  // Over the tets of node 0 only: node 0's rows have the same bits, the others differ.
  std::vector<char> tets(m.tetCount(), 0);
  for (int t = 0; t < m.tetCount(); ++t)
    for (int n : m.elements[t].nodes) tets[t] |= n == 0;
  const VecX partial = potential.exactHessianProduct(x, v, &tets);
  EXPECT_EQ(VecX(partial.head<3>()), VecX(Hv.head<3>()));
  EXPECT_NE(partial, Hv);
  tets.pop_back();
  EXPECT_THROW(potential.exactHessianProduct(x, v, &tets), std::logic_error);
  // The filtered Hessian is positive semi-definite.
  potential.hessian(x, H, HessianKind::Filtered);
  EXPECT_GT(Eigen::SelfAdjointEigenSolver<MatX>(MatX(H)).eigenvalues().minCoeff(), -1e-8 * MatX(H).norm());
}

// Activation force blocks for some tets only: the flagged ones as computed for all, the
// others zero; a flag vector of the wrong size is refused.
TEST(FacePotential, ActivationForceBlocksOfFlaggedTetsOnly) {
  FaceModel m = makeBarFace(false);
  Uniform u(4);
  FacePotential potential(m);
  potential.setActivations(randomTetActivations(m, u));
  VecX x = m.mesh.restPositions();
  for (int i = 0; i < x.size(); ++i) x[i] += 0.1 * u();
  const std::vector<Eigen::Matrix<double, 12, 6>> all = potential.activationForceBlocks(x);  // a copy
  std::vector<char> wanted(m.tetCount(), 0);
  for (int t = 0; t < m.tetCount(); t += 3) wanted[t] = 1;
  const auto some = potential.activationForceBlocks(x, wanted);
  for (int t = 0; t < m.tetCount(); ++t) {
    ASSERT_GT(all[t].norm(), 0.0);
    if (wanted[t])
      EXPECT_EQ(some[t], all[t]) << "tet " << t;
    else
      EXPECT_EQ(some[t].norm(), 0.0) << "tet " << t;
  }
  EXPECT_THROW(potential.activationForceBlocks(x, std::vector<char>(1, 1)), std::logic_error);
}

TEST(FacePotential, PassiveModelIsCorotatedElasticityAndZeroAtRest) {
  FaceModel m = makeBarFace(false);
  m.gravity.setZero();
  FacePotential potential(m);  // identity activations: S passive
  const VecX X = m.mesh.restPositions();
  EXPECT_EQ(potential.value(X), 0.0);
  ElasticEnergy corotated(m.elements, MaterialModel::Corotated, m.lame);
  SparseMatrix H = potential.hessianPattern(), K = potential.hessianPattern();
  potential.hessian(X, H, HessianKind::Exact);
  BlockAssembler assembler(m.pattern, K);
  assembler.setZero();
  corotated.addHessian(X, assembler);
  EXPECT_LT(relativeError(MatX(H), MatX(K)), 1e-12);
  // The equilibrium of the unloaded passive face is the rest shape.
  FaceSolver solver(m);
  VecX x;
  solver.solve(std::vector<Vec6>(m.tetCount(), identityActivation()), JawPose::Zero(), x);
  EXPECT_LT((x - X).lpNorm<Eigen::Infinity>(), 1e-12);
}

TEST(JawJoint, JacobianMatchesFiniteDifferences) {
  JawJoint joint;
  joint.pivot = Vec3(0.1, -0.2, 0.3);
  joint.openAxis = Vec3(1, 0.1, 0).normalized();
  joint.sideAxis = Vec3(0, 1, 0.2).normalized();
  JawPose pose;
  pose << 0.2, -0.1, 0.01, 0.02, -0.03;
  const Vec3 X(0.5, -0.4, 0.8);
  const auto f = [&](const VecX& p) -> VecX { return jawPosition(joint, JawPose(p), X); };
  EXPECT_LT(relativeError(jawPositionJacobian(joint, pose, X), centralJacobian(f, pose, 1e-6)), 1e-9);
}

TEST(FaceSolver, JawOpensAndMusclesDeform) {
  FaceModel m = makeBarFace(true);
  FaceSolver solver(m);
  JawPose pose = JawPose::Zero();
  pose[0] = 0.1;
  std::vector<Vec6> muscles = {fibreContraction(Vec3::UnitX(), 0.8), identityActivation()};
  VecX x;
  const NewtonResult r = solver.solve(m.geometry.tetActivations(muscles), pose, x);
  EXPECT_TRUE(r.converged);
  for (int n : m.jawNodes)
    EXPECT_LT((x.segment<3>(3 * n) - jawPosition(m.jaw, pose, m.mesh.vertices.row(n).transpose())).norm(), 1e-14);
  VecX g;
  solver.potential().gradient(x, g);
  zeroConstrained(g, solver.attachedDofs());
  EXPECT_LT(g.lpNorm<Eigen::Infinity>(), 1e-9);
}

// Adjoint gradient of the inverse objective (data term + regularizers) with respect to
// muscle activations and the jaw pose, against central differences of re-solved
// equilibria.
TEST(FaceAdjoint, ActivationAndJawGradientsMatchFiniteDifferences) {
  FaceModel m = makeBarFace(true);
  FaceSolver solver(m, tightNewton());
  Uniform u(9);
  FaceTarget target = perturbedTarget(m, u, 0, 3);
  ExpressionObjective objective(solver, m.geometry, target, ActivationModel::Muscles, Regularization{1e-3, 1e-2, 0},
                                true);
  Expression e;
  e.activations = {testing::randomActivation(u, 0.1), testing::randomActivation(u, 0.1)};
  e.jaw = openJaw();
  const VecX q = objective.pack(e);
  VecX g;
  objective.evaluate(q, &g);
  const auto f = [&](const VecX& p) { return objective.evaluate(p, nullptr); };
  const VecX fd = centralGradient(f, q, 1e-5);
  EXPECT_LT(relativeError(g, fd), 1e-6) << "adjoint\n" << g.transpose() << "\nfd\n" << fd.transpose();
  // Away from the equilibrium, with the Newton step solved alongside: the same gradient
  // as without it, and the step solves H_ff d = -grad E_f.
  VecX x = objective.positions();
  for (Eigen::Index i = 0; i < x.size(); ++i) x[i] += 1e-3 * u();
  VecX g1, g2, step;
  objective.evaluateAt(q, x, &g1);
  objective.evaluateAt(q, x, &g2, &step);
  EXPECT_LT(relativeError(g2, g1), 1e-13);
  const VecX reference = solver.solveFreeDofs(objective.positions(), MatX(-solver.gradientAt(objective.positions()))).col(0);
  EXPECT_LT(relativeError(step, reference), 1e-12);
  EXPECT_GT(step.norm(), 0.0);
}

// Gauss-Newton residual Jacobian (equilibrium sensitivity dx/dq through the activations,
// S and the jaw) against central differences of the residuals of re-solved equilibria;
// and r^T r / 2 is the objective.
TEST(FaceSensitivity, ResidualJacobianMatchesFiniteDifferences) {
  FaceModel m = makeBarFace(true);
  FaceSolver solver(m, tightNewton());
  Uniform u(5);
  FaceTarget target = perturbedTarget(m, u, 1, 3);
  target.weights = VecX::Ones(target.nodes.size());
  target.weights[0] = 0.5;
  FaceTarget surfaceTarget = makeSurfaceTarget("scan", target.nodes, perturbedBoundary(m, u));
  surfaceTarget.weights = target.weights;
  const Regularization reg{1e-3, 1e-2, 0};
  for (const FaceTarget* t : {&target, &surfaceTarget}) {
    ExpressionObjective objective(solver, m.geometry, *t, ActivationModel::Muscles, reg, true);
    Expression e;
    e.activations = {testing::randomActivation(u, 0.1), testing::randomActivation(u, 0.1)};
    e.jaw = openJaw();
    const VecX q = objective.pack(e);
    const double J = objective.evaluate(q, nullptr);
    const VecX r = expressionResiduals(m, *t, e, objective.positions(), reg);
    EXPECT_NEAR(0.5 * r.squaredNorm(), J, 1e-14 * J);
    const MatX analytic = expressionResidualJacobian(solver, m.geometry, *t, e, objective.positions(), reg, true);
    const auto residuals = [&](const VecX& p) -> VecX {
      objective.evaluate(p, nullptr);
      return expressionResiduals(m, *t, objective.unpack(p), objective.positions(), reg);
    };
    const MatX fd = centralJacobian(residuals, q, 1e-5);
    EXPECT_LT(relativeError(analytic, fd), 1e-6) << (t->surface ? "closest-point target" : "correspondences");
    EXPECT_GT(analytic.topRows(3 * t->nodes.size()).rightCols(kJawDofs).norm(), 0.0);
  }
}

// First-order warm start (ExpressionObjective::setFirstOrderStart, the Gauss-Newton
// solve's trial points): from x + dx/dq dq Newton reaches the equilibrium found from rest
// in fewer iterations than from x; a non-finite or failing prediction falls back to x
// (the same iterates as the plain warm start); at q itself x is taken without a solve.
TEST(FaceSensitivity, FirstOrderStartReachesTheSameEquilibrium) {
  FaceModel m = makeBarFace(true);
  FaceSolver solver(m);
  Uniform u(9);
  const FaceTarget target = perturbedTarget(m, u, 1, 3);
  const Regularization reg{1e-3, 1e-2, 0};
  ExpressionObjective objective(solver, m.geometry, target, ActivationModel::Muscles, reg, true);
  Expression e;
  e.activations = {testing::randomActivation(u, 0.1), testing::randomActivation(u, 0.1)};
  e.jaw = openJaw();
  const VecX q0 = objective.pack(e);
  objective.evaluate(q0, nullptr);
  const VecX x0 = objective.positions();
  MatX dxdq;
  expressionResidualJacobian(solver, m.geometry, target, e, x0, reg, true, &dxdq);
  VecX q1 = q0;
  for (Eigen::Index i = 0; i < q1.size(); ++i) q1[i] += 0.05 * u();

  // Newton iterations of one evaluation at q1 after `setup`, and its positions.
  const auto solveAtQ1 = [&](const auto& setup, VecX& x) {
    setup();
    const int before = objective.newtonIterations();
    objective.evaluate(q1, nullptr);
    x = objective.positions();
    return objective.newtonIterations() - before;
  };
  VecX fromRest, fromX0, predicted, fallback;
  solveAtQ1([&] { objective.setPositions(VecX()); }, fromRest);
  const int warm = solveAtQ1([&] { objective.setPositions(x0); }, fromX0);
  const int first = solveAtQ1([&] { objective.setFirstOrderStart(q0, x0, dxdq); }, predicted);
  std::printf("Newton iterations at q1: from x(q0) %d, from the first-order prediction %d\n", warm, first);
  EXPECT_LT(first, warm);
  EXPECT_LT((predicted - fromRest).lpNorm<Eigen::Infinity>(), 1e-9);
  EXPECT_LT((fromX0 - fromRest).lpNorm<Eigen::Infinity>(), 1e-9);
  for (const double scale : {std::numeric_limits<double>::quiet_NaN(), 1e200}) {
    // NaN: no prediction; 1e200: the energy overflows at the predicted start (SolveError).
    EXPECT_EQ(solveAtQ1([&] { objective.setFirstOrderStart(q0, x0, scale * dxdq); }, fallback), warm);
    EXPECT_EQ(fallback, fromX0);
  }
  objective.setFirstOrderStart(q0, x0, dxdq);
  const int before = objective.newtonIterations();
  objective.evaluate(q0, nullptr);
  EXPECT_EQ(objective.newtonIterations(), before);
  EXPECT_EQ(objective.positions(), x0);
}

// Reusing Newton's last factorization (the Gauss-Newton fit's Jacobians): the
// sensitivity after solve() then differs from the exact one (Hessian at the equilibrium
// itself) by about the last step over the element size, not in its bits only; after
// adoptEquilibrium(), or with reuse off, the exact Hessian is factorized (the same bits
// as a fresh solver); the scope restores the setting.
TEST(FaceSensitivity, ReusedNewtonFactorizationIsCloseToTheExactOne) {
  FaceModel m = makeBarFace(true);
  Uniform u(21);
  const std::vector<Vec6> a = randomTetActivations(m, u);
  const JawPose pose = openJaw();
  const auto sensitivityAfterSolve = [&](FaceSolver& solver, bool adopt) {
    VecX x;
    solver.solve(a, pose, x);
    if (adopt) solver.adoptEquilibrium(a, pose, x);
    const MatX derivative = MatX::Ones(x.size(), 1);
    return solver.sensitivity(x, derivative, MatX::Zero(x.size(), 1));
  };
  FaceSolver exactSolver(m);
  const MatX exact = sensitivityAfterSolve(exactSolver, false);
  FaceSolver solver(m);
  MatX reused, adopted;
  {
    const ReuseNewtonFactorization reuse(solver);
    EXPECT_TRUE(solver.reuseNewtonFactorization());
    reused = sensitivityAfterSolve(solver, false);
    adopted = sensitivityAfterSolve(solver, true);
  }
  EXPECT_FALSE(solver.reuseNewtonFactorization());
  const double difference = relativeError(reused, exact);
  std::printf("sensitivity from Newton's last factorization: relative difference %.2e\n", difference);
  EXPECT_GT(difference, 0.0);  // a different matrix was solved
  EXPECT_LT(difference, 1e-7);
  EXPECT_EQ(adopted, exact);
  EXPECT_EQ(sensitivityAfterSolve(solver, false), exact);
}

// adjoint() with nearby preconditioning, at a point near the last factorized one (other
// activations and positions): conjugate gradients preconditioned by that factorization
// give the factorized adjoint and Newton step without a factorization; when they do not
// converge in time it factorizes at the point, with the bits of a plain adjoint there.
TEST(FaceAdjoint, NearbyPreconditioningSolvesWithoutFactorizingOrFallsBack) {
  FaceModel m = makeBarFace(true);
  Uniform u(23);
  const std::vector<Vec6> a = randomTetActivations(m, u);
  const JawPose pose = openJaw();
  FaceSolver solver(m);
  VecX x;
  solver.solve(a, pose, x);
  solver.adoptEquilibrium(a, pose, x);
  const VecX loss = VecX::LinSpaced(x.size(), -1.0, 1.0);
  solver.adjoint(x, pose, loss);  // factorized at x
  const auto nearPoint = [&](std::vector<Vec6>& b, VecX& y) {
    b = a;
    for (Vec6& v : b) v += 1e-3 * Vec6(u(), u(), u(), u(), u(), u());
    y = x;
    for (Eigen::Index i = 0; i < y.size(); ++i) y[i] += 1e-4 * u();
  };
  const auto plainAdjoint = [&](const std::vector<Vec6>& b, VecX y, VecX& step) {
    FaceSolver plain(m);
    plain.adoptEquilibrium(b, pose, y);
    return plain.adjoint(y, pose, loss, &step);
  };
  std::vector<Vec6> b;
  VecX y, step, plainStep;
  nearPoint(b, y);
  const FaceAdjoint expected = plainAdjoint(b, y, plainStep);
  const int factorizations = solver.factorizationCount();
  solver.adoptEquilibrium(b, pose, y);
  FaceAdjoint near;
  {
    const NearbyPreconditioningScope scope(solver, {10, 1e-12});
    near = solver.adjoint(y, pose, loss, &step);
  }
  EXPECT_EQ(solver.nearbyPreconditioning().maxIterations, 0);  // restored
  EXPECT_EQ(solver.factorizationCount(), factorizations);
  EXPECT_EQ(solver.preconditionedSolveCount(), 1);
  EXPECT_LT(relativeError(near.lambda, expected.lambda), 1e-10);
  EXPECT_LT(relativeError(step, plainStep), 1e-10);
  EXPECT_GT(relativeError(step, plainStep), 0.0);  // solved another way
  EXPECT_LT(relativeError(near.jaw, expected.jaw), 1e-9);
  double worst = 0.0;
  for (std::size_t t = 0; t < near.tetActivations.size(); ++t)
    worst = std::max(worst, (near.tetActivations[t] - expected.tetActivations[t]).norm());
  EXPECT_LT(worst, 1e-9 * expected.lambda.norm());
  // One iteration to 1e-15 does not converge: factorized at the point, the plain bits.
  nearPoint(b, y);
  const FaceAdjoint plain = plainAdjoint(b, y, plainStep);
  solver.adoptEquilibrium(b, pose, y);
  {
    const NearbyPreconditioningScope scope(solver, {1, 1e-15});
    near = solver.adjoint(y, pose, loss, &step);
  }
  EXPECT_EQ(solver.factorizationCount(), factorizations + 1);
  EXPECT_EQ(solver.preconditionedSolveCount(), 2);
  EXPECT_EQ(near.lambda, plain.lambda);
  EXPECT_EQ(step, plainStep);
  EXPECT_EQ(near.jaw, plain.jaw);
}

// factorizeAt() runs its `meanwhile` once, beside a factorization or without one (current
// or reused), changes no bit of the solves after it, and rethrows what meanwhile throws.
TEST(FaceSensitivity, FactorizeAtRunsMeanwhileOnceAndChangesNoBit) {
  FaceModel m = makeBarFace(true);
  Uniform u(22);
  const std::vector<Vec6> a = randomTetActivations(m, u);
  const JawPose pose = JawPose::Zero();
  FaceSolver plain(m), overlapped(m);
  VecX x;
  plain.solve(a, pose, x);
  VecX y = x;
  overlapped.adoptEquilibrium(a, pose, y);
  plain.adoptEquilibrium(a, pose, x);
  const MatX derivative = MatX::Ones(x.size(), 2);
  const MatX expected = plain.sensitivity(x, derivative, MatX::Zero(x.size(), 2));
  int runs = 0;
  VecX g;
  overlapped.factorizeAt(y, [&] {
    ++runs;
    overlapped.potential().gradient(y, g);
  });
  EXPECT_EQ(runs, 1);
  EXPECT_EQ(overlapped.gradientAt(y), g);  // computed with the Hessian: the same bits
  EXPECT_EQ(overlapped.sensitivity(y, derivative, MatX::Zero(y.size(), 2)), expected);
  overlapped.factorizeAt(y, [&] { ++runs; });  // current: runs it alone
  EXPECT_EQ(runs, 2);
  {
    const ReuseNewtonFactorization reuse(overlapped);  // Newton's last factorization
    VecX z;
    overlapped.solve(a, pose, z);
    overlapped.factorizeAt(z, [&] { ++runs; });
    EXPECT_EQ(runs, 3);
  }
  overlapped.adoptEquilibrium(a, pose, y);
  EXPECT_THROW(overlapped.factorizeAt(y, [] { throw std::runtime_error("meanwhile"); }), std::runtime_error);
  EXPECT_EQ(overlapped.sensitivity(y, derivative, MatX::Zero(y.size(), 2)), expected);
}

// A face of more than kTwoDomainCholeskyRows dofs: its sensitivities are solved with the
// two-domain factorization, and satisfy H_ff dx_f = -(F_f + H_fc dx_c).
TEST(FaceSensitivity, LargeFacesFactorizeOnTwoDomains) {
  SyntheticFaceOptions o;
  o.cellsAround = 30;
  o.cellsUp = 27;
  o.cellsThrough = 3;
  o.targetCount = 1;
  const SyntheticFace f = makeSyntheticFace(o);
  ASSERT_GE(3 * f.model.nodeCount(), kTwoDomainCholeskyRows);
  FaceSolver solver(f.model);
  const Expression rest = restExpression(f.model, ActivationModel::Muscles);
  const std::vector<Vec6> a = f.trueGeometry.tetActivations(rest.activations);
  VecX x;
  solver.solve(a, rest.jaw, x);
  solver.adoptEquilibrium(a, rest.jaw, x);  // the solver's own factorization at x
  Uniform u(5);
  MatX force(x.size(), 3), motion = MatX::Zero(x.size(), 1);
  for (Eigen::Index i = 0; i < force.size(); ++i) force.data()[i] = u();
  const DofMask& fixed = solver.attachedDofs();
  for (Eigen::Index i = 0; i < x.size(); ++i)
    if (fixed[i]) motion(i, 0) = 1e-3 * u();
  const MatX dx = solver.sensitivity(x, force, motion, 2);
  EXPECT_TRUE(solver.factorizedOnTwoDomains());
  SparseMatrix H = solver.potential().hessianPattern();
  solver.potential().hessian(x, H, HessianKind::Exact);
  MatX residual = H * dx + force;
  double worst = 0.0;
  for (Eigen::Index c = 0; c < dx.cols(); ++c) {
    for (Eigen::Index i = 0; i < x.size(); ++i)
      if (fixed[i]) residual(i, c) = 0.0;
    worst = std::max(worst, residual.col(c).norm() / force.col(c).norm());
  }
  std::printf("%d dofs: relative residual %.2e\n", static_cast<int>(x.size()), worst);
  EXPECT_LT(worst, 1e-10);
  for (Eigen::Index i = 0; i < x.size(); ++i) {
    if (!fixed[i]) continue;
    EXPECT_EQ(dx(i, 0), 0.0);
    EXPECT_EQ(dx(i, 2), motion(i, 0));
  }
  // Nearby preconditioning with the two-domain factorization: an adjoint at other
  // activations and positions, by conjugate gradients, solves the Hessian there.
  std::vector<Vec6> b = a;
  for (Vec6& v : b) v += 1e-3 * Vec6(u(), u(), u(), u(), u(), u());
  VecX y = x;
  for (Eigen::Index i = 0; i < y.size(); ++i)
    if (!fixed[i]) y[i] += 1e-5 * u();
  solver.adoptEquilibrium(b, rest.jaw, y);
  const int factorizations = solver.factorizationCount();
  const VecX loss = VecX::LinSpaced(x.size(), -1.0, 1.0);
  FaceAdjoint near;
  {
    const NearbyPreconditioningScope scope(solver, {10, 1e-11});
    near = solver.adjoint(y, rest.jaw, loss);
  }
  EXPECT_EQ(solver.factorizationCount(), factorizations);
  EXPECT_EQ(solver.preconditionedSolveCount(), 1);
  FacePotential atY(f.model);
  atY.setActivations(b);
  atY.hessian(y, H, HessianKind::Exact);
  VecX adjointResidual = H * near.lambda - loss;
  for (Eigen::Index i = 0; i < y.size(); ++i)
    if (fixed[i]) adjointResidual[i] = 0.0;
  VecX freeLoss = loss;
  zeroConstrained(freeLoss, fixed);
  std::printf("nearby-preconditioned adjoint: relative residual %.2e\n", adjointResidual.norm() / freeLoss.norm());
  EXPECT_LT(adjointResidual.norm(), 1e-9 * freeLoss.norm());
}

// Closest-point targets: the loss gradient 2 (x - cp(x)) / (n size^2) and the residual
// derivative I - dcp/dx (points on faces, edges and vertices of the scan) against central
// differences in x.
TEST(FaceTarget, ClosestPointLossAndResidualDerivativesMatchFiniteDifferences) {
  FaceModel m = makeBarFace(false);
  Uniform u(8);
  std::vector<int> nodes;
  for (int n = 0; n < m.nodeCount(); ++n) nodes.push_back(n);
  const FaceTarget target = makeSurfaceTarget("scan", nodes, perturbedBoundary(m, u));
  VecX x = m.mesh.restPositions();
  for (Eigen::Index i = 0; i < x.size(); ++i) x[i] += 0.03 * u();
  VecX g = VecX::Zero(x.size());
  targetLoss(target, x, m.size, &g);
  const auto f = [&](const VecX& p) { return targetLoss(target, p, m.size); };
  EXPECT_LT(relativeError(g, centralGradient(f, x, 1e-7)), 1e-6);
  const std::vector<TargetMatch> matches = matchTarget(target, x);
  for (std::size_t k = 0; k < nodes.size(); ++k) {
    const auto residual = [&](const VecX& p) -> VecX {
      VecX y = x;
      y.segment<3>(3 * nodes[k]) = p;
      return p - matchTarget(target, y)[k].point;
    };
    const MatX fd = centralJacobian(residual, x.segment<3>(3 * nodes[k]), 1e-7);
    EXPECT_LT((matches[k].residualDerivative - fd).norm(), 1e-5) << "node " << nodes[k];
  }
}

// Matrix-free per-tet Jacobian: J v against central differences of the residuals along v
// (activations of every tet and the jaw), and u^T (J v) = (J^T u)^T v.
TEST(FaceSensitivity, PerTetJacobianProductsMatchFiniteDifferences) {
  FaceModel m = makeBarFace(true);
  FaceSolver solver(m, tightNewton());
  Uniform u(6);
  FaceTarget target = perturbedTarget(m, u, 0, 2);
  const Regularization reg{1e-3, 1e-2, 0};
  const MuscleGeometry unused;
  ExpressionObjective objective(solver, unused, target, ActivationModel::PerTet, reg, true);
  Expression e;
  e.activations = randomTetActivations(m, u);
  e.jaw << 0.04, 0.02, -0.01, 0.01, 0.02;
  const VecX q = objective.pack(e);
  objective.evaluate(q, nullptr);
  const PerTetResidualJacobian J(solver, target, e, objective.positions(), reg, true);
  ASSERT_EQ(J.parameters(), q.size());
  VecX v(q.size()), w(3 * target.nodes.size() + 7 * m.tetCount());
  for (Eigen::Index i = 0; i < v.size(); ++i) v[i] = u();
  for (Eigen::Index i = 0; i < w.size(); ++i) w[i] = u();
  const VecX Jv = J.apply(v);
  const VecX JTw = J.applyTranspose(w);
  const auto residualsAlong = [&](double s) -> VecX {
    const VecX p = q + s * v;
    objective.evaluate(p, nullptr);
    return expressionResiduals(m, target, objective.unpack(p), objective.positions(), reg);
  };
  const double h = 1e-5;
  const VecX fd = (residualsAlong(h) - residualsAlong(-h)) / (2 * h);
  EXPECT_LT((Jv - fd).norm(), 1e-6 * fd.norm());
  EXPECT_NEAR(w.dot(Jv), JTw.dot(v), 1e-12 * std::abs(w.dot(Jv)) + 1e-15);
}

// dL/dS per entry (the S-fit gradient) and dL/da per tet (the per-tet baseline).
TEST(FaceAdjoint, GeometryAndPerTetGradientsMatchFiniteDifferences) {
  FaceModel m = makeBarFace(false);
  FaceSolver solver(m, tightNewton());
  Uniform u(4);
  FaceTarget target = perturbedTarget(m, u, 1, 2);
  const std::vector<Vec6> muscles = {fibreContraction(Vec3(1, 0.2, 0), 0.8), fibreContraction(Vec3(0, 1, 0.3), 0.85)};
  MuscleGeometry S = m.geometry;
  ExpressionObjective objective(solver, S, target, ActivationModel::Muscles, Regularization{0, 0, 0}, false);
  Expression e;
  e.activations = muscles;
  const VecX q = objective.pack(e);
  VecX g;
  objective.evaluate(q, &g);
  const VecX analytic = S.valueGradient(objective.lastTetGradient(), muscles);
  const VecX s0 = S.values();
  const auto f = [&](const VecX& s) {
    S.assignValues(s);
    const double J = objective.evaluate(q, nullptr);
    S.assignValues(s0);
    return J;
  };
  // A subset of entries (all entries of the first 8 rows) keeps the test fast.
  const int n = S.rowEnd(7);
  VecX fd(n);
  for (int k = 0; k < n; ++k) {
    VecX sp = s0, sm = s0;
    sp[k] += 1e-5;
    sm[k] -= 1e-5;
    fd[k] = (f(sp) - f(sm)) / 2e-5;
  }
  EXPECT_LT(relativeError(analytic.head(n), fd), 1e-6);

  // Per-tet activations (baseline): gradient of the first 3 tets' activations.
  ExpressionObjective perTet(solver, S, target, ActivationModel::PerTet, Regularization{1e-4, 1e-3, 0}, false);
  Expression et;
  et.activations = S.tetActivations(muscles);
  const VecX qt = perTet.pack(et);
  VecX gt;
  perTet.evaluate(qt, &gt);
  VecX fdt(18);
  for (int k = 0; k < 18; ++k) {
    VecX qp = qt, qm = qt;
    qp[k] += 1e-5;
    qm[k] -= 1e-5;
    fdt[k] = (perTet.evaluate(qp, nullptr) - perTet.evaluate(qm, nullptr)) / 2e-5;
  }
  EXPECT_LT(relativeError(gt.head(18), fdt), 1e-6);
}

}  // namespace
}  // namespace softfit::face
