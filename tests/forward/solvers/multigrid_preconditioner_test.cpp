#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <random>

#include "forward/solvers/block_sparse_pattern.h"
#include "forward/solvers/cholesky_solver.h"
#include "forward/solvers/dirichlet_elimination.h"
#include "forward/solvers/multigrid_preconditioner.h"
#include "forward/solvers/symmetric_product.h"

namespace softfit {
namespace {

// Nodes of an L-shaped block of the lattice (a non-box active set, like a cut grid)
// with an SPD matrix coupling each node to its 26 neighbours through random SPD 3x3
// blocks (a vector Laplacian with anisotropy) plus a lumped "mass" diagonal.
struct LatticeProblem {
  std::vector<Eigen::Vector3i> nodes;
  BlockSparsePattern pattern;
  SparseMatrix A;
  DofMask fixed;
};

LatticeProblem makeProblem(int n, bool withDirichlet, double mass = 0.05) {
  LatticeProblem p;
  std::vector<std::vector<int>> id(n * n * n);
  std::vector<int> index(n * n * n, -1);
  auto at = [n](int i, int j, int k) { return i + n * (j + n * k); };
  for (int k = 0; k < n; ++k)
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i) {
        if (i > n / 2 && j > n / 2) continue;  // L shape
        index[at(i, j, k)] = static_cast<int>(p.nodes.size());
        p.nodes.emplace_back(i - 3, j + 1, k - 4);  // arbitrary (also odd, negative) offset
      }
  std::vector<std::vector<int>> cliques;
  std::vector<std::array<int, 2>> edges;
  for (int k = 0; k < n; ++k)
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i) {
        const int a = index[at(i, j, k)];
        if (a < 0) continue;
        for (int dk = -1; dk <= 1; ++dk)
          for (int dj = -1; dj <= 1; ++dj)
            for (int di = -1; di <= 1; ++di) {
              const int ii = i + di, jj = j + dj, kk = k + dk;
              if (ii < 0 || jj < 0 || kk < 0 || ii >= n || jj >= n || kk >= n) continue;
              const int b = index[at(ii, jj, kk)];
              if (b > a) {
                cliques.push_back({a, b});
                edges.push_back({a, b});
              }
            }
      }
  const int nodes = static_cast<int>(p.nodes.size());
  p.pattern = BlockSparsePattern(nodes, cliques);
  p.A = p.pattern.zeroMatrix();
  BlockAssembler assembler(p.pattern, p.A);
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (const auto& e : edges) {
    Mat3 G;
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c) G(r, c) = u(rng);
    const Mat3 B = G * G.transpose() + Mat3::Identity();
    assembler.addBlock(e[0], e[0], B);
    assembler.addBlock(e[1], e[1], B);
    assembler.addBlock(e[0], e[1], -B);
    assembler.addBlock(e[1], e[0], -B);
  }
  assembler.addDiagonal(VecX::Constant(3 * nodes, mass));
  p.fixed.assign(3 * nodes, 0);
  if (withDirichlet) {
    for (int i = 0; i < nodes; ++i)
      if (p.nodes[i][1] == 1) p.fixed[3 * i] = p.fixed[3 * i + 1] = p.fixed[3 * i + 2] = 1;  // bottom layer
    p.fixed[3 * (nodes - 1) + 1] = 1;  // and a single component elsewhere
    VecX b = VecX::Zero(3 * nodes);
    eliminateDirichlet(p.A, b, p.fixed, VecX::Zero(3 * nodes));
  }
  return p;
}

VecX randomVector(int n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  VecX v(n);
  for (int i = 0; i < n; ++i) v[i] = u(rng);
  return v;
}

MultigridOptions smallOptions() {
  MultigridOptions o;
  o.coarsestMaxDofs = 100;  // several levels even for these small lattices
  return o;
}

TEST(TrilinearProlongation, ReproducesLinearFields) {
  const LatticeProblem p = makeProblem(9, false);
  std::vector<Eigen::Vector3i> coarse;
  const SparseMatrix P = trilinearProlongation(p.nodes, coarse);
  ASSERT_EQ(P.rows(), static_cast<int>(p.nodes.size()));
  ASSERT_EQ(P.cols(), static_cast<int>(coarse.size()));
  EXPECT_LT(coarse.size(), p.nodes.size() / 3);
  const Eigen::Vector3d g(0.3, -1.7, 2.5);
  auto f = [&](const Eigen::Vector3d& x) { return 1.25 + g.dot(x); };
  VecX fc(coarse.size());
  for (size_t c = 0; c < coarse.size(); ++c) fc[c] = f(2.0 * coarse[c].cast<double>());  // coarse node c at 2c
  const VecX ff = P * fc;
  for (size_t i = 0; i < p.nodes.size(); ++i) EXPECT_NEAR(ff[i], f(p.nodes[i].cast<double>()), 1e-12);
  // Rows sum to one (constants are reproduced) and weights are trilinear.
  const VecX ones = P * VecX::Ones(P.cols());
  EXPECT_LT((ones - VecX::Ones(P.rows())).cwiseAbs().maxCoeff(), 1e-15);
}

TEST(SymmetricProduct, MatchesEigenAndIsDeterministic) {
  const LatticeProblem p = makeProblem(8, true);
  const VecX x = randomVector(static_cast<int>(p.A.rows()), 3);
  const SymmetricProduct serial(p.A, 1);
  SymmetricProduct parallel(p.A, 2);
  EXPECT_TRUE(serial.blocked());
  VecX y1, y2;
  serial.apply(x, y1);
  parallel.apply(x, y2);
  const VecX reference = p.A * x;
  EXPECT_LT((y1 - reference).norm(), 1e-13 * reference.norm());
  EXPECT_LT((y2 - reference).norm(), 1e-13 * reference.norm());
  VecX y3;
  parallel.apply(x, y3);
  EXPECT_EQ(y2, y3);  // bit-identical run to run
}

// The product keeps its own copy of the values: setValues() swaps in new ones (same
// structure), a different structure is refused.
TEST(SymmetricProduct, SetValuesReplacesTheCopiedValues) {
  for (int n : {8, 24}) {  // serial and chunked products
    const LatticeProblem p = makeProblem(n, true);
    const VecX x = randomVector(static_cast<int>(p.A.rows()), 5);
    SymmetricProduct product(p.A, 2);
    SparseMatrix B = p.A;
    for (Eigen::Index k = 0; k < B.nonZeros(); ++k) B.valuePtr()[k] *= 1.0 + 0.25 * std::sin(0.1 * k);
    B = 0.5 * (B + SparseMatrix(B.transpose()));  // same pattern, symmetric, different values
    ASSERT_EQ(B.nonZeros(), p.A.nonZeros());
    VecX y;
    product.apply(x, y);
    const VecX Ax = p.A * x;
    EXPECT_LT((y - Ax).norm(), 1e-13 * Ax.norm()) << n;
    product.setValues(B);
    product.apply(x, y);
    const VecX Bx = B * x;
    EXPECT_LT((y - Bx).norm(), 1e-13 * Bx.norm()) << n;
    EXPECT_GT((Bx - Ax).norm(), 1e-3 * Ax.norm()) << n;  // the values did change
  }
  const LatticeProblem small = makeProblem(6, false), other = makeProblem(7, false);
  SymmetricProduct product(small.A, 1);
  EXPECT_THROW(product.setValues(other.A), std::logic_error);
  VecX y;
  EXPECT_THROW(product.apply(VecX::Zero(3), y), std::invalid_argument);
}

// Large matrices are split into a fixed number of chunks: the bits do not depend on the
// number of threads that share them out.
TEST(SymmetricProduct, LargeProductsAreBitIdenticalForEveryThreadCount) {
  const LatticeProblem p = makeProblem(24, true);
  ASSERT_GT(p.A.nonZeros(), 2000000);
  const VecX x = randomVector(static_cast<int>(p.A.rows()), 4);
  VecX y1;
  SymmetricProduct(p.A, 1).apply(x, y1);
  const VecX reference = p.A * x;
  EXPECT_LT((y1 - reference).norm(), 1e-13 * reference.norm());
  for (int threads : {2, 3, 0}) {
    VecX y;
    SymmetricProduct(p.A, threads).apply(x, y);
    EXPECT_EQ(y, y1) << threads;
  }
}

TEST(MultigridPreconditioner, IsSymmetricPositiveDefinite) {
  for (bool dirichlet : {false, true}) {
    const LatticeProblem p = makeProblem(10, dirichlet);
    MultigridPreconditioner mg(p.nodes, p.fixed, smallOptions());
    ASSERT_TRUE(mg.rebuild(p.A));
    EXPECT_GE(mg.levelCount(), 3);
    for (unsigned s = 0; s < 3; ++s) {
      const VecX x = randomVector(static_cast<int>(p.A.rows()), 10 + s);
      const VecX y = randomVector(static_cast<int>(p.A.rows()), 20 + s);
      VecX Bx, By;
      mg.apply(x, Bx);
      mg.apply(y, By);
      EXPECT_NEAR(y.dot(Bx), x.dot(By), 1e-12 * std::abs(x.dot(By)) + 1e-14 * Bx.norm() * y.norm());
      EXPECT_GT(x.dot(Bx), 0.0);
      EXPECT_GT(y.dot(By), 0.0);
    }
  }
}

TEST(MultigridPreconditioner, PcgMatchesCholeskyAndIsDeterministic) {
  const LatticeProblem p = makeProblem(12, true);
  const VecX b0 = randomVector(static_cast<int>(p.A.rows()), 5);
  VecX b = b0;
  for (int i = 0; i < b.size(); ++i)
    if (p.fixed[i]) b[i] = 0.0;
  CholeskySolver cholesky;
  ASSERT_TRUE(cholesky.factorize(p.A));
  const VecX exact = cholesky.solve(b);

  auto solve = [&] {
    MultigridPreconditioner mg(p.nodes, p.fixed, smallOptions());
    EXPECT_TRUE(mg.rebuild(p.A));
    VecX x = VecX::Zero(b.size());
    const PcgResult r = preconditionedConjugateGradient(mg, b, x, 1e-12, 200);
    EXPECT_TRUE(r.converged);
    EXPECT_LT(r.iterations, 40);
    return x;
  };
  const VecX x1 = solve();
  EXPECT_LT((x1 - exact).norm(), 1e-8 * exact.norm());
  const VecX x2 = solve();
  EXPECT_EQ(x1, x2);  // bit-identical
}

TEST(MultigridPreconditioner, StaleCoarseLevelsStillConverge) {
  LatticeProblem p = makeProblem(10, true);
  MultigridPreconditioner mg(p.nodes, p.fixed, smallOptions());
  ASSERT_TRUE(mg.rebuild(p.A));
  SparseMatrix A2 = p.A;
  for (int c = 0; c < A2.outerSize(); ++c)
    for (SparseMatrix::InnerIterator it(A2, c); it; ++it)
      if (!p.fixed[it.row()] && !p.fixed[c]) it.valueRef() *= 1.0 + 0.05 * std::sin(0.1 * (it.row() + c));
  mg.setFineMatrix(A2);
  const VecX b = randomVector(static_cast<int>(A2.rows()), 9).cwiseProduct(
      Eigen::Map<const Eigen::Matrix<char, Eigen::Dynamic, 1>>(p.fixed.data(), p.fixed.size()).cast<double>().unaryExpr(
          [](double f) { return 1.0 - f; }));
  VecX x = VecX::Zero(b.size());
  const PcgResult r = preconditionedConjugateGradient(mg, b, x, 1e-12, 200);
  EXPECT_TRUE(r.converged);
  EXPECT_LT((A2 * x - b).norm(), 1e-11 * b.norm());
}

// Ground-contact-like springs: stiffness k along y at every bottom-layer node, stored
// with only their own entries (as NewmarkSystem::contact).
SparseMatrix bottomSprings(const LatticeProblem& p, double k) {
  std::vector<Eigen::Triplet<double>> t;
  for (size_t i = 0; i < p.nodes.size(); ++i)
    if (p.nodes[i][1] == 1) t.emplace_back(3 * static_cast<int>(i) + 1, 3 * static_cast<int>(i) + 1, k);
  SparseMatrix C(p.A.rows(), p.A.cols());
  C.setFromTriplets(t.begin(), t.end());
  return C;
}

int pcgIterations(const MultigridPreconditioner& mg, const SparseMatrix& A, const char* label) {
  SCOPED_TRACE(label);
  const VecX b = randomVector(static_cast<int>(A.rows()), 11);
  VecX x = VecX::Zero(b.size());
  const PcgResult r = preconditionedConjugateGradient(mg, b, x, 1e-12, 300);
  EXPECT_TRUE(r.converged) << r.iterations << " iterations, breakdown " << r.breakdown;
  EXPECT_LT((A * x - b).norm(), 1e-11 * b.norm());
  return r.iterations;
}

TEST(MultigridPreconditioner, CorrectionCarriesContactSpringsToTheCoarseLevels) {
  const LatticeProblem p = makeProblem(12, false);
  const SparseMatrix C = bottomSprings(p, 1e3);
  const SparseMatrix A1 = p.A + C;  // same pattern: the springs sit on diagonal entries
  ASSERT_EQ(A1.nonZeros(), p.A.nonZeros());
  // Coarse levels built without the springs and kept (the old behaviour)...
  MultigridPreconditioner stale(p.nodes, p.fixed, smallOptions());
  ASSERT_TRUE(stale.rebuild(p.A));
  stale.setFineMatrix(A1);
  const int staleIterations = pcgIterations(stale, A1, "stale");
  // ...with the springs passed as a correction...
  MultigridPreconditioner corrected(p.nodes, p.fixed, smallOptions());
  ASSERT_TRUE(corrected.rebuild(p.A));
  ASSERT_TRUE(corrected.setFineMatrix(A1, &C));
  const int correctedIterations = pcgIterations(corrected, A1, "corrected");
  // ...and rebuilt from A1.
  MultigridPreconditioner fresh(p.nodes, p.fixed, smallOptions());
  ASSERT_TRUE(fresh.rebuild(A1, &C));
  const int freshIterations = pcgIterations(fresh, A1, "fresh");
  EXPECT_LT(correctedIterations, staleIterations);
  EXPECT_LE(correctedIterations, freshIterations + 1);
  // The correction is swapped, not accumulated: springs released (correction zero), the
  // corrected hierarchy is back to the one built from A (up to round-off).
  const SparseMatrix none = 0.0 * C;
  ASSERT_TRUE(corrected.setFineMatrix(p.A, &none));
  MultigridPreconditioner plain(p.nodes, p.fixed, smallOptions());
  ASSERT_TRUE(plain.rebuild(p.A));
  EXPECT_NEAR(pcgIterations(corrected, p.A, "released"), pcgIterations(plain, p.A, "plain"), 1);
  // A hierarchy rebuilt with the springs swaps them out again.
  ASSERT_TRUE(fresh.setFineMatrix(p.A, &none));
  EXPECT_NEAR(pcgIterations(fresh, p.A, "fresh released"), pcgIterations(plain, p.A, "plain"), 1);
}

}  // namespace
}  // namespace softfit
