#include <gtest/gtest.h>

#include <limits>

#include "forward/solvers/block_sparse_pattern.h"
#include "forward/solvers/cholesky_solver.h"
#include "forward/solvers/dirichlet_elimination.h"

namespace softfit {
namespace {

// SPD block tridiagonal test matrix over n nodes.
SparseMatrix makeSpd(int n, double shift, BlockSparsePattern& pattern) {
  std::vector<std::vector<int>> cliques;
  for (int i = 0; i + 1 < n; ++i) cliques.push_back({i, i + 1});
  pattern = BlockSparsePattern(n, cliques);
  SparseMatrix A = pattern.zeroMatrix();
  BlockAssembler assembler(pattern, A);
  for (int i = 0; i + 1 < n; ++i) {
    Mat3 k = Mat3::Identity() * (1.0 + 0.1 * i);
    assembler.addBlock(i, i, k);
    assembler.addBlock(i + 1, i + 1, k);
    assembler.addBlock(i, i + 1, -k);
    assembler.addBlock(i + 1, i, -k);
  }
  assembler.addDiagonal(VecX::Constant(3 * n, shift));
  return A;
}

TEST(CholeskySolver, SolvesAndReusesSymbolicAnalysis) {
  BlockSparsePattern pattern;
  SparseMatrix A = makeSpd(50, 0.5, pattern);
  CholeskySolver solver;
  ASSERT_TRUE(solver.factorize(A));
  const VecX b = VecX::LinSpaced(150, -1.0, 2.0);
  EXPECT_LT((A * solver.solve(b) - b).norm() / b.norm(), 1e-13);
  A *= 2.0;
  ASSERT_TRUE(solver.factorize(A));
  EXPECT_LT((A * solver.solve(b) - b).norm() / b.norm(), 1e-13);
  EXPECT_EQ(solver.symbolicAnalyses(), 1);
}

// Many right-hand sides: solved in chunks of kSolveColumnsPerChunk columns, in parallel;
// each column as accurate as a single solve, the same bits with 1, 2 or 3 threads.
TEST(CholeskySolver, SolvesManyColumnsInChunksWithTheSameBitsForAnyThreadCount) {
  BlockSparsePattern pattern;
  const SparseMatrix A = makeSpd(200, 0.5, pattern);
  CholeskySolver solver;
  ASSERT_TRUE(solver.factorize(A));
  const Eigen::Index columns = 2 * kSolveColumnsPerChunk + 5;
  MatX B(A.rows(), columns);
  for (Eigen::Index c = 0; c < columns; ++c)
    B.col(c) = VecX::LinSpaced(A.rows(), -1.0, 2.0 + c).array().sin().matrix();
  const MatX X = solver.solveColumns(B, 1);
  for (Eigen::Index c = 0; c < columns; ++c) {
    EXPECT_LT((A * X.col(c) - B.col(c)).norm() / B.col(c).norm(), 1e-13) << "column " << c;
    EXPECT_LT((X.col(c) - solver.solve(B.col(c))).norm(), 1e-13 * X.col(c).norm()) << "column " << c;
  }
  EXPECT_EQ(solver.solveColumns(B, 2), X);
  EXPECT_EQ(solver.solveColumns(B, 3), X);
  EXPECT_EQ(solver.solveColumns(B), X);
}

TEST(CholeskySolver, ReportsIndefiniteMatrix) {
  BlockSparsePattern pattern;
  SparseMatrix A = makeSpd(10, -5.0, pattern);
  CholeskySolver solver;
  EXPECT_FALSE(solver.factorize(A));
  EXPECT_THROW(solver.solve(VecX::Ones(30)), std::logic_error);
}

// A system B = A + 0.3 I and A's factorization as its (stale) preconditioner.
class PreconditionedCg : public ::testing::Test {
 protected:
  void SetUp() override {
    A = makeSpd(40, 0.5, pattern);
    ASSERT_TRUE(stale.factorize(A));
    B = A;
    B.diagonal().array() += 0.3;  // perturbed system
  }
  BlockSparsePattern pattern;
  SparseMatrix A, B;
  CholeskySolver stale;
};

TEST_F(PreconditionedCg, ConvergesWithStalePreconditioner) {
  const VecX b = VecX::LinSpaced(120, 1.0, -1.0);
  VecX x = VecX::Zero(120);
  const PcgResult r = preconditionedConjugateGradient(B, b, stale, x, 1e-12, 100);
  EXPECT_TRUE(r.converged);
  EXPECT_GT(r.iterations, 1);
  EXPECT_LT((B * x - b).norm() / b.norm(), 1e-12);
}

// Every column takes the steps conjugateGradient takes on it alone (to round-off); a
// zero column stays zero; the slowest column's count is reported.
TEST_F(PreconditionedCg, ColumnsTogetherTakeEachColumnsOwnSteps) {
  MatX rhs(120, 3);
  rhs.col(0) = VecX::LinSpaced(120, 1.0, -1.0);
  rhs.col(1).setZero();
  rhs.col(2) = VecX::LinSpaced(120, 0.0, 2.0).array().sin();
  int applications = 0;
  const auto multiply = [&](const MatX& P, MatX& AP) { AP = B * P; };
  const auto precondition = [&](const MatX& R, MatX& Z) {
    ++applications;
    Z = stale.solveColumns(R);
  };
  MatX X;
  const PcgResult together = conjugateGradientColumns(multiply, precondition, rhs, X, 1e-10, 100);
  EXPECT_TRUE(together.converged);
  EXPECT_FALSE(together.breakdown);
  EXPECT_EQ(applications, together.iterations);  // none after the last step
  EXPECT_TRUE(X.col(1).isZero(0.0));
  int slowest = 0;
  for (int c : {0, 2}) {
    VecX x = VecX::Zero(120);
    const PcgResult alone = conjugateGradient([&](const VecX& p, VecX& Ap) { Ap = B * p; },
                                              [&](const VecX& r, VecX& z) { z = stale.solve(r); }, VecX(rhs.col(c)),
                                              x, 1e-10, 100);
    ASSERT_TRUE(alone.converged);
    slowest = std::max(slowest, alone.iterations);
    EXPECT_LT((x - X.col(c)).norm(), 1e-12 * x.norm()) << c;
  }
  EXPECT_EQ(together.iterations, slowest);
  EXPECT_LT((B * X - rhs).norm(), 1e-10 * rhs.norm());
  // Not within the tolerance in too few iterations: not converged, the residual reported.
  const PcgResult short_ = conjugateGradientColumns(multiply, precondition, rhs, X, 1e-14, 1);
  EXPECT_FALSE(short_.converged);
  EXPECT_EQ(short_.iterations, 1);
  EXPECT_GT(short_.relativeResidual, 1e-14);
  // A non-finite right-hand side never converges.
  MatX bad = rhs;
  bad(5, 2) = std::numeric_limits<double>::quiet_NaN();
  const PcgResult nan = conjugateGradientColumns(multiply, precondition, bad, X, 1e-10, 100);
  EXPECT_FALSE(nan.converged);
  EXPECT_TRUE(nan.breakdown);
}

TEST(DirichletElimination, FreeInfinityNormSkipsTheConstrainedEntries) {
  VecX v(4);
  v << -3.0, 2.0, -5.0, 1.0;
  EXPECT_EQ(freeInfinityNorm(v, DofMask{0, 0, 1, 0}), 3.0);
  EXPECT_EQ(freeInfinityNorm(v, DofMask{1, 0, 1, 0}), 2.0);
  EXPECT_EQ(freeInfinityNorm(v, DofMask{1, 1, 1, 1}), 0.0);
}

TEST(DirichletElimination, MatchesReducedSystem) {
  BlockSparsePattern pattern;
  SparseMatrix A = makeSpd(6, 0.2, pattern);
  const MatX dense = MatX(A);
  VecX b = VecX::LinSpaced(18, 0.0, 1.0);
  DofMask fixed(18, 0);
  VecX values = VecX::Zero(18);
  for (int i : {0, 1, 2, 10}) {
    fixed[i] = 1;
    values[i] = 0.1 * (i + 1);
  }
  const VecX bOriginal = b;
  eliminateDirichlet(A, b, fixed, values);
  CholeskySolver solver;
  ASSERT_TRUE(solver.factorize(A));
  const VecX x = solver.solve(b);
  // x satisfies the constraints and the free rows of the original system.
  const VecX r = dense * x - bOriginal;
  for (int i = 0; i < 18; ++i) {
    if (fixed[i]) EXPECT_NEAR(x[i], values[i], 1e-14);
    else EXPECT_NEAR(r[i], 0.0, 1e-12);
  }
}

// ConstrainedColumns, filled before the elimination, subtracts from b's free rows what
// eliminateDirichlet moves there for the same values, and leaves the rest alone.
TEST(DirichletElimination, ConstrainedColumnsMoveWhatTheEliminationMoves) {
  BlockSparsePattern pattern;
  SparseMatrix A = makeSpd(6, 0.2, pattern);
  DofMask fixed(18, 0);
  VecX values = VecX::Zero(18);
  for (int i : {0, 1, 2, 10}) {
    fixed[i] = 1;
    values[i] = 0.1 * (i + 1);
  }
  ConstrainedColumns columns(A, fixed);
  columns.setValues(A);
  const VecX b0 = VecX::LinSpaced(18, 0.0, 1.0);
  VecX eliminated = b0;
  eliminateDirichlet(A, eliminated, fixed, values);
  VecX later = b0;
  VecX v = values;
  for (int i = 0; i < 18; ++i)
    if (!fixed[i]) v[i] = 7.0;  // free entries of v are not read
  columns.subtractProduct(v, later);
  for (int i = 0; i < 18; ++i) {
    if (fixed[i]) EXPECT_EQ(later[i], b0[i]) << i;
    else EXPECT_NEAR(later[i], eliminated[i], 1e-15) << i;
  }
  EXPECT_NE(later, b0);
  EXPECT_THROW(ConstrainedColumns(A, DofMask(5, 0)), std::logic_error);
}

}  // namespace
}  // namespace softfit
