// Synthetic recovery tests of the inverse face model (small synthetic face, 576 tets).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <string>

#include "face/activation_all_at_once.h"
#include "face/activation_fit.h"
#include "face/geometry_fit.h"
#include "face/synthetic_face.h"

namespace softfit::face {
namespace {

SyntheticFaceOptions smallFace() {
  SyntheticFaceOptions o;
  o.cellsAround = 8;
  o.cellsUp = 6;
  o.cellsThrough = 2;
  o.targetCount = 6;
  return o;
}

const SyntheticFace& face() {
  static const SyntheticFace f = makeSyntheticFace(smallFace());
  return f;
}

TEST(SyntheticFace, ModelIsFaceLike) {
  const SyntheticFace& f = face();
  EXPECT_EQ(f.model.tetCount(), 8 * 6 * 2 * 6);
  EXPECT_EQ(f.model.muscleCount(), 7);
  EXPECT_FALSE(f.model.skullNodes.empty());
  EXPECT_FALSE(f.model.jawNodes.empty());
  // Every muscle owns some tets in the truth and in the shifted start, and they differ.
  const MatX St = f.trueGeometry.dense(), S0 = f.model.geometry.dense();
  for (int j = 1; j <= 7; ++j) {
    EXPECT_GT(St.col(j).sum(), 0.0) << f.model.muscleNames[j - 1];
    EXPECT_GT(S0.col(j).sum(), 0.0) << f.model.muscleNames[j - 1];
  }
  EXPECT_GT((St - S0).cwiseAbs().sum(), 5.0);
  // Targets move the skin visibly (several percent of the model size somewhere).
  for (std::size_t k = 0; k < f.targets.size(); ++k) {
    const VecX x = f.model.mesh.restPositions();
    double moved = 0.0;
    for (std::size_t c = 0; c < f.targets[k].nodes.size(); ++c)
      moved = std::max(moved, (f.targets[k].points.row(c).transpose() - x.segment<3>(3 * f.targets[k].nodes[c])).norm());
    EXPECT_GT(moved, 0.01 * f.model.size) << k;
  }
}

TEST(ActivationFit, RecoversUnseenTargetsWithKnownGeometry) {
  const SyntheticFace& f = face();
  FaceSolver solver(f.model);
  ActivationFitOptions options;
  options.maxIterations = 30;
  double worst = 0.0;
  for (int k = 4; k < 5; ++k) {
    const ActivationFitResult r = fitActivations(solver, f.trueGeometry, f.targets[k],
                                                 restExpression(f.model, ActivationModel::Muscles), options);
    std::printf("target %d: mean error %.3g mm (%.3g%% of size), %d iterations, %d evaluations, %d Newton, %.2f s\n", k,
                1e3 * r.meanError, 100 * r.meanError / f.model.size, r.iterations, r.evaluations, r.newtonIterations,
                r.seconds);
    for (std::size_t i = 0; i < r.costHistory.size(); i += 10) std::printf(" %zu:%.3g", i, r.costHistory[i]);
    std::printf("\n");
    worst = std::max(worst, r.meanError);
    EXPECT_EQ(invertedTetCount(f.model, r.positions), 0);
  }
  EXPECT_LT(worst, 0.01 * f.model.size);
}

// The all-at-once Gauss-Newton (one factorization per iteration) reaches the nested
// solve's fit in fewer factorizations, and gives up to it when it does not converge: one
// all-at-once iteration, then the nested solve from the start, with the same bits as the
// nested solve alone.
TEST(ActivationFit, AllAtOnceMatchesTheNestedSolveAndFallsBackToIt) {
  const SyntheticFace& f = face();
  const Expression start = restExpression(f.model, ActivationModel::Muscles);
  for (int k = 3; k < 5; ++k) {
    const FaceTarget& target = f.targets[k];
    ActivationFitOptions nestedOnly, fallBack;
    nestedOnly.allAtOnceIterations = 0;
    fallBack.allAtOnceIterations = 1;
    FaceSolver s0(f.model), s1(f.model), s2(f.model);
    const ActivationFitResult all = fitActivations(s0, f.trueGeometry, target, start, ActivationFitOptions());
    const ActivationFitResult nested = fitActivations(s1, f.trueGeometry, target, start, nestedOnly);
    const ActivationFitResult fallen = fitActivations(s2, f.trueGeometry, target, start, fallBack);
    std::printf("target %d: all-at-once %d factorizations, error %.6g mm; nested %d Newton iterations, %.6g mm\n", k,
                all.newtonIterations, 1e3 * all.meanError, nested.newtonIterations, 1e3 * nested.meanError);
    EXPECT_EQ(all.stopReason, "all-at-once Gauss-Newton: converged");
    EXPECT_TRUE(all.converged);
    EXPECT_LT(all.newtonIterations, nested.newtonIterations);
    double dq = 0.0;
    for (std::size_t j = 0; j < all.expression.activations.size(); ++j)
      dq = std::max(dq, (all.expression.activations[j] - nested.expression.activations[j]).lpNorm<Eigen::Infinity>());
    dq = std::max(dq, (all.expression.jaw - nested.expression.jaw).lpNorm<Eigen::Infinity>());
    EXPECT_LT(dq, 1e-4) << k;
    EXPECT_NEAR(all.meanError, nested.meanError, 1e-3 * nested.meanError) << k;
    EXPECT_NEAR(all.objective, nested.objective, 1e-4 * nested.objective) << k;
    EXPECT_EQ(invertedTetCount(f.model, all.positions), 0);

    EXPECT_NE(fallen.stopReason.find("all-at-once Gauss-Newton: maximum iterations after 1 iterations; ceres:"),
              std::string::npos)
        << fallen.stopReason;
    EXPECT_EQ(fallen.positions, nested.positions);
    EXPECT_EQ(fallen.newtonIterations, nested.newtonIterations + 1);
  }
}

// A target far outside what the muscles can reach (the skin pulled 30% of the model size
// sideways): the all-at-once iteration sees its steps stop shrinking and gives up (the
// fit then runs the nested solve), without throwing and with finite iterates.
TEST(ActivationFit, AllAtOnceOnAnUnreachableTargetStopsCleanly) {
  const SyntheticFace& f = face();
  FaceTarget target = f.targets[4];
  for (Eigen::Index c = 0; c < target.points.rows(); ++c) target.points(c, 0) += 0.3 * f.model.size;
  FaceSolver solver(f.model);
  const Regularization reg;
  ExpressionObjective objective(solver, f.trueGeometry, target, ActivationModel::Muscles, reg, true);
  const Expression start = restExpression(f.model, ActivationModel::Muscles);
  const AllAtOnceResult a = solveActivationsAllAtOnce(solver, f.trueGeometry, target, objective, objective.pack(start),
                                                      f.model.mesh.restPositions(), reg, true);
  std::printf("unreachable target: %s after %d iterations\n", a.stopReason.c_str(), a.iterations);
  EXPECT_FALSE(a.converged);
  EXPECT_EQ(a.stopReason, "all-at-once Gauss-Newton: the steps stopped shrinking");
  EXPECT_GE(a.iterations, 3);
  EXPECT_TRUE(a.x.allFinite());
  EXPECT_TRUE(a.q.allFinite());
}

// The last all-at-once iterations take quasi-Newton steps: with the previous D and J^T J
// and the exact gradient they converge without D's solve, and land where full iterations
// do (target 3 takes one such step before the last). Their adjoints are solved by
// conjugate gradients preconditioned with the previous factorization: one factorization
// fewer per step, and where factorized ones land.
TEST(ActivationFit, AllAtOnceConvergesOnAQuasiNewtonLastStep) {
  const SyntheticFace& f = face();
  const Regularization reg;
  const Expression start = restExpression(f.model, ActivationModel::Muscles);
  int mostQuasiNewtonSteps = 0;
  for (int k = 3; k < 5; ++k) {
    AllAtOnceOptions fullOnly, factorized;
    fullOnly.quasiNewtonBelow = 0.0;
    factorized.preconditionedIterations = 0;
    AllAtOnceResult r[3];
    for (int i = 0; i < 3; ++i) {
      FaceSolver solver(f.model);
      ExpressionObjective objective(solver, f.trueGeometry, f.targets[k], ActivationModel::Muscles, reg, true);
      r[i] = solveActivationsAllAtOnce(solver, f.trueGeometry, f.targets[k], objective, objective.pack(start),
                                       f.model.mesh.restPositions(), reg, true,
                                       i == 0 ? AllAtOnceOptions() : i == 1 ? fullOnly : factorized);
    }
    std::printf("target %d: %d iterations, %d of them quasi-Newton (%d with full ones only); |dq| %.3g, |dx| %.3g\n", k,
                r[0].iterations, r[0].quasiNewtonSteps, r[1].iterations, (r[0].q - r[1].q).lpNorm<Eigen::Infinity>(),
                (r[0].x - r[1].x).lpNorm<Eigen::Infinity>());
    EXPECT_TRUE(r[0].converged && r[1].converged);
    EXPECT_TRUE(r[0].quasiNewtonLastStep);
    EXPECT_FALSE(r[1].quasiNewtonLastStep);
    EXPECT_EQ(r[0].iterations, r[1].iterations);
    EXPECT_EQ(r[1].quasiNewtonSteps, 0);
    mostQuasiNewtonSteps = std::max(mostQuasiNewtonSteps, r[0].quasiNewtonSteps);
    // 1e-2 of the tolerances (4.4e-9 and 5.6e-10 in q, 6.3e-12 and 1.8e-12 in x): the
    // quasi-Newton steps converge linearly, with a rate of ~1e-3 here.
    EXPECT_LT((r[0].q - r[1].q).lpNorm<Eigen::Infinity>(), 1e-2 * AllAtOnceOptions().parameterTolerance);
    EXPECT_LT((r[0].x - r[1].x).lpNorm<Eigen::Infinity>(), 1e-2 * AllAtOnceOptions().stepTolerance);
    // Every quasi-Newton try preconditioned, none factorized; the same iterations as
    // with factorized tries, landing within 1e-3 of the tolerances of them.
    std::printf("target %d: %d preconditioned tries, %d factorizations (%d factorizing them); |dq| %.3g, |dx| %.3g\n",
                k, r[0].preconditionedSolves, r[0].factorizations, r[2].factorizations,
                (r[0].q - r[2].q).lpNorm<Eigen::Infinity>(), (r[0].x - r[2].x).lpNorm<Eigen::Infinity>());
    EXPECT_EQ(r[1].preconditionedSolves, 0);
    EXPECT_EQ(r[2].preconditionedSolves, 0);
    EXPECT_EQ(r[0].preconditionedSolves, r[0].quasiNewtonSteps);
    EXPECT_EQ(r[0].factorizations, r[2].factorizations - r[0].quasiNewtonSteps);
    EXPECT_EQ(r[2].factorizations, r[2].iterations);
    EXPECT_EQ(r[0].iterations, r[2].iterations);
    EXPECT_LT((r[0].q - r[2].q).lpNorm<Eigen::Infinity>(), 1e-3 * AllAtOnceOptions().parameterTolerance);
    EXPECT_LT((r[0].x - r[2].x).lpNorm<Eigen::Infinity>(), 1e-3 * AllAtOnceOptions().stepTolerance);
  }
  EXPECT_GE(mostQuasiNewtonSteps, 2);
}

// Fits of several targets from one start share its linearization: the second fit skips
// one factorization and gives the same bits as a fit of its own; another S refills it.
TEST(ActivationFit, StartLinearizationIsSharedByFitsFromTheSameStart) {
  const SyntheticFace& f = face();
  const Expression start = restExpression(f.model, ActivationModel::Muscles);
  FaceSolver shared(f.model), own(f.model);
  StartLinearization kept;
  fitActivations(shared, f.trueGeometry, f.targets[3], start, {}, nullptr, &kept);
  EXPECT_EQ(kept.solver, &shared);
  const ActivationFitResult withKept = fitActivations(shared, f.trueGeometry, f.targets[4], start, {}, nullptr, &kept);
  const ActivationFitResult alone = fitActivations(own, f.trueGeometry, f.targets[4], start, {});
  EXPECT_TRUE(withKept.converged);
  EXPECT_EQ(withKept.newtonIterations, alone.newtonIterations - 1);
  EXPECT_EQ(withKept.positions, alone.positions);
  EXPECT_EQ(withKept.expression.activations, alone.expression.activations);

  // S moved by 1e-3 in one tet: the kept linearization is not used but made again.
  MuscleGeometry other = f.trueGeometry;
  VecX values = other.values();
  int tet = 0;
  while (other.rowEnd(tet) - other.rowBegin(tet) < 2) ++tet;
  values[other.rowBegin(tet)] -= 1e-3;
  values[other.rowBegin(tet) + 1] += 1e-3;
  other.setValues(values);
  FaceSolver own2(f.model);
  const ActivationFitResult otherKept = fitActivations(shared, other, f.targets[4], start, {}, nullptr, &kept);
  const ActivationFitResult otherAlone = fitActivations(own2, other, f.targets[4], start, {});
  EXPECT_EQ(otherKept.newtonIterations, otherAlone.newtonIterations);
  EXPECT_EQ(otherKept.positions, otherAlone.positions);
  EXPECT_TRUE(kept.geometry == other);
}

// A scan without correspondences: the skin surface of the unseen target's equilibrium;
// half of the skin nodes are pulled to their closest scan points. Error measured against
// the true vertex positions.
TEST(ActivationFit, RecoversUnseenTargetFromClosestPointScan) {
  const SyntheticFace& f = face();
  const FaceTarget& truth = f.targets[4];
  TriangleSurface scan;
  scan.vertices = f.model.mesh.vertices;
  for (std::size_t k = 0; k < truth.nodes.size(); ++k) scan.vertices.row(truth.nodes[k]) = truth.points.row(k);
  std::vector<char> skin(f.model.nodeCount(), 0);
  for (int n : truth.nodes) skin[n] = 1;
  const auto faces = boundaryFaces(f.model.mesh);
  std::vector<Eigen::RowVector3i> kept;
  for (Eigen::Index i = 0; i < faces.rows(); ++i)
    if (skin[faces(i, 0)] && skin[faces(i, 1)] && skin[faces(i, 2)]) kept.push_back(faces.row(i));
  scan.triangles.resize(static_cast<Eigen::Index>(kept.size()), 3);
  for (std::size_t i = 0; i < kept.size(); ++i) scan.triangles.row(static_cast<Eigen::Index>(i)) = kept[i];
  std::vector<int> pulled;
  for (std::size_t k = 0; k < truth.nodes.size(); k += 2) pulled.push_back(truth.nodes[k]);
  const FaceTarget target = makeSurfaceTarget("scan", pulled, scan);
  FaceSolver solver(f.model);
  ActivationFitOptions options;
  options.maxIterations = 30;
  const ActivationFitResult r =
      fitActivations(solver, f.trueGeometry, target, restExpression(f.model, ActivationModel::Muscles), options);
  const double surfaceError = r.meanError;  // distance of the pulled nodes to the scan
  const double vertexError = correspondenceErrors(truth, r.positions).mean();
  std::printf("closest-point scan: distance to scan %.3g mm, true vertex error %.3g mm (%.3g%% of size), %d iterations\n",
              1e3 * surfaceError, 1e3 * vertexError, 100 * vertexError / f.model.size, r.iterations);
  EXPECT_LT(vertexError, 0.01 * f.model.size);
  EXPECT_LE(surfaceError, vertexError);
  EXPECT_EQ(invertedTetCount(f.model, r.positions), 0);
}

TEST(GeometryFit, SharedGeometryFitLowersHeldOutError) {
  const SyntheticFace& f = face();
  const std::vector<FaceTarget> training(f.targets.begin(), f.targets.begin() + 3);
  GeometryFitOptions options;
  options.rounds = 2;
  options.activation.maxIterations = 20;
  options.geometryIterations = 8;
  const GeometryFitResult fit = fitGeometry(f.model, f.model.geometry, training, options, [](const GeometryFitRound& r) {
    std::printf("round %d: training mean error %.3g mm, %d S iterations, %d inverted tets, %.2f s\n", r.round,
                1e3 * r.meanError, r.geometryIterations, r.invertedTets, r.seconds);
  });
  EXPECT_LT(fit.history.back().meanError, fit.history.front().meanError);
  FaceSolver solver(f.model);
  ActivationFitOptions heldOut;
  heldOut.maxIterations = 30;
  double before = 0.0, after = 0.0;
  int inverted = 0;
  for (int k = 4; k < 5; ++k) {
    const auto start = restExpression(f.model, ActivationModel::Muscles);
    const ActivationFitResult r0 = fitActivations(solver, f.model.geometry, f.targets[k], start, heldOut);
    const ActivationFitResult r1 = fitActivations(solver, fit.geometry, f.targets[k], start, heldOut);
    before += r0.meanError;
    after += r1.meanError;
    inverted += invertedTetCount(f.model, r1.positions);
  }
  std::printf("held-out mean error: S0 fixed %.3g mm, fitted S %.3g mm; inverted tets %d\n", 1e3 * before,
              1e3 * after, inverted);
  EXPECT_LT(after, 0.8 * before);  // measured: 0.0776 -> 0.0508 mm
  EXPECT_EQ(inverted, 0);
}

// A non-physical artifact (a local bump on the skin) cannot be produced by a few muscles
// but can by free per-tet activations.
TEST(ActivationFit, PerTetBaselineFitsArtifactTheReducedModelCannot) {
  const SyntheticFace& f = face();
  FaceTarget target = f.targets[0];
  // Bump: the skin node nearest to the left cheek and its closest neighbours move 4 mm outward.
  const std::vector<int> artifact = injectBumpArtifact(target, Vec3(0.06, -0.01, 0.075), 3, 0.004);
  auto artifactError = [&](const VecX& x) { return face::artifactError(target, artifact, x); };
  FaceSolver solver(f.model);
  ActivationFitOptions reduced;
  reduced.maxIterations = 30;
  const ActivationFitResult r = fitActivations(solver, f.trueGeometry, target,
                                               restExpression(f.model, ActivationModel::Muscles), reduced);
  ActivationFitOptions perTet;
  perTet.kind = ActivationModel::PerTet;
  perTet.regularization = Regularization{1e-8, 1e-7, 0};
  perTet.maxIterations = 40;
  Expression start = r.expression;
  start.activations = f.trueGeometry.tetActivations(r.expression.activations);
  const ActivationFitResult b = fitActivations(solver, f.trueGeometry, target, start, perTet, &r.positions);
  const double er = artifactError(r.positions), eb = artifactError(b.positions);
  std::printf("artifact (4 mm bump) error: reduced %.3g mm, per-tet %.3g mm (%d iterations, %.2f s)\n", 1e3 * er,
              1e3 * eb, b.iterations, b.seconds);
  EXPECT_GT(er, 0.002);      // the muscle model leaves most of the 4 mm bump
  EXPECT_LT(eb, 0.05 * er);  // the per-tet baseline fits it (measured 0.06 vs 3.2 mm)
}

}  // namespace
}  // namespace softfit::face
