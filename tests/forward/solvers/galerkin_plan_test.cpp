// GalerkinPlan: the planned P^T A P equals the explicit sparse product (same pattern,
// values to round-off) on a cut-cell-like lattice with prescribed dofs, after A's values
// change, on a second level, and for a large (chunked) plan bit-identically for every
// thread count.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <random>

#include "forward/solvers/block_sparse_pattern.h"
#include "forward/solvers/dirichlet_elimination.h"
#include "forward/solvers/galerkin_plan.h"
#include "forward/solvers/multigrid_preconditioner.h"

namespace softfit {
namespace {

// The cells of an n^3 lattice inside a ball (a cut-cell grid's active set: the boundary
// cells are partly inside, with a volume fraction in (0, 1)), each an 8-node hex
// element with a random SPD 24x24 stiffness scaled by its fraction, plus a lumped mass.
struct CutLattice {
  std::vector<Eigen::Vector3i> nodes;
  std::vector<std::array<int, 8>> cells;
  std::vector<double> fraction;
  BlockSparsePattern pattern;
  DofMask fixed;
};

CutLattice makeLattice(int n) {
  CutLattice g;
  std::vector<int> index((n + 1) * (n + 1) * (n + 1), -1);
  auto at = [n](int i, int j, int k) { return i + (n + 1) * (j + (n + 1) * k); };
  const double c = 0.5 * n, radius = 0.47 * n;
  std::vector<std::vector<int>> cliques;
  for (int k = 0; k < n; ++k)
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i) {
        const double d = std::sqrt((i + 0.5 - c) * (i + 0.5 - c) + (j + 0.5 - c) * (j + 0.5 - c) +
                                   (k + 0.5 - c) * (k + 0.5 - c));
        if (d > radius + 0.5) continue;  // outside
        std::array<int, 8> cell;
        for (int v = 0; v < 8; ++v) {
          const int ii = i + (v & 1), jj = j + ((v >> 1) & 1), kk = k + (v >> 2);
          int& id = index[at(ii, jj, kk)];
          if (id < 0) {
            id = static_cast<int>(g.nodes.size());
            g.nodes.emplace_back(ii - 5, jj + 3, kk - 2);  // odd, negative offsets too
          }
          cell[v] = id;
        }
        g.cells.push_back(cell);
        g.fraction.push_back(d > radius - 0.5 ? std::max(0.05, radius + 0.5 - d) : 1.0);  // cut cells
        cliques.emplace_back(cell.begin(), cell.end());
      }
  g.pattern = BlockSparsePattern(static_cast<int>(g.nodes.size()), cliques);
  g.fixed.assign(3 * g.nodes.size(), 0);
  int lowest = g.nodes[0][1];
  for (const auto& p : g.nodes) lowest = std::min(lowest, p[1]);
  for (size_t i = 0; i < g.nodes.size(); ++i)
    if (g.nodes[i][1] <= lowest + 1) g.fixed[3 * i] = g.fixed[3 * i + 1] = g.fixed[3 * i + 2] = 1;  // bottom
  g.fixed[3 * (g.nodes.size() / 2) + 2] = 1;  // and a single component elsewhere
  return g;
}

// A with the lattice's pattern: random SPD cell matrices (seeded), Dirichlet rows and
// columns identity-eliminated as the integrator does.
SparseMatrix assemble(const CutLattice& g, unsigned seed) {
  SparseMatrix A = g.pattern.zeroMatrix();
  BlockAssembler assembler(g.pattern, A);
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (size_t e = 0; e < g.cells.size(); ++e) {
    Eigen::Matrix<double, 24, 24> G;
    for (int r = 0; r < 24; ++r)
      for (int s = 0; s < 24; ++s) G(r, s) = u(rng);
    const Eigen::Matrix<double, 24, 24> K = g.fraction[e] * (G * G.transpose() / 24.0);
    for (int a = 0; a < 8; ++a)
      for (int b = 0; b < 8; ++b) assembler.addBlock(g.cells[e][a], g.cells[e][b], K.block<3, 3>(3 * a, 3 * b));
  }
  assembler.addDiagonal(VecX::Constant(A.rows(), 0.01));
  VecX rhs = VecX::Zero(A.rows());
  eliminateDirichlet(A, rhs, g.fixed, VecX::Zero(A.rows()));
  return A;
}

// The explicit product with P's prescribed rows zero (as the multigrid's reference).
SparseMatrix explicitGalerkin(const SparseMatrix& A, const SparseMatrix& nodal, const DofMask* fixed) {
  std::vector<Eigen::Triplet<double>> triplets;
  for (int J = 0; J < nodal.outerSize(); ++J)
    for (SparseMatrix::InnerIterator it(nodal, J); it; ++it)
      for (int c = 0; c < 3; ++c) {
        const int row = 3 * static_cast<int>(it.row()) + c;
        if (!fixed || !(*fixed)[row]) triplets.emplace_back(row, 3 * J + c, it.value());
      }
  SparseMatrix P(3 * nodal.rows(), 3 * nodal.cols());
  P.setFromTriplets(triplets.begin(), triplets.end());
  const SparseMatrix AP = A * P;
  SparseMatrix C = SparseMatrix(P.transpose()) * AP;
  return C;
}

// max |planned - explicit| / max |explicit|, and every explicit entry inside the plan's
// pattern.
double relativeDifference(const SparseMatrix& planned, const SparseMatrix& reference) {
  const Eigen::MatrixXd dense = Eigen::MatrixXd(planned);
  const Eigen::MatrixXd expected = Eigen::MatrixXd(reference);
  for (int c = 0; c < reference.outerSize(); ++c)
    for (SparseMatrix::InnerIterator it(reference, c); it; ++it) {
      if (it.value() != 0.0) {
        EXPECT_NE(planned.coeff(it.row(), it.col()), 0.0) << it.row() << " " << it.col();
      }
    }
  return (dense - expected).cwiseAbs().maxCoeff() / expected.cwiseAbs().maxCoeff();
}

TEST(GalerkinPlan, MatchesTheExplicitProductWithPrescribedDofsAndAfterValuesChange) {
  const CutLattice g = makeLattice(7);
  int prescribed = 0;
  for (char f : g.fixed) prescribed += f;
  ASSERT_GT(prescribed, 10);
  std::vector<Eigen::Vector3i> coarse;
  const SparseMatrix nodal = trilinearProlongation(g.nodes, coarse);
  SparseMatrix A = assemble(g, 1);
  ASSERT_TRUE(GalerkinPlan::supports(A));
  GalerkinPlan plan(A, nodal, &g.fixed);
  SparseMatrix C;
  plan.compute(A, C);
  EXPECT_EQ(C.rows(), 3 * static_cast<Eigen::Index>(coarse.size()));
  const SparseMatrix expected = explicitGalerkin(A, nodal, &g.fixed);
  EXPECT_LT(relativeDifference(C, expected), 1e-13);
  EXPECT_EQ((Eigen::MatrixXd(C) - Eigen::MatrixXd(C).transpose()).cwiseAbs().maxCoeff(), 0.0);  // exactly symmetric
  // A coarse dof whose fine dofs are all prescribed has an exactly zero row.
  bool zeroRow = false;
  for (int c = 0; c < C.cols(); ++c) zeroRow |= C.col(c).cwiseAbs().sum() == 0.0;
  EXPECT_TRUE(zeroRow);

  // New values, same pattern: the same plan, the same matrix object.
  const SparseMatrix A2 = assemble(g, 2);
  ASSERT_TRUE(plan.matches(A2));
  const Eigen::MatrixXd before = Eigen::MatrixXd(C);
  plan.compute(A2, C);
  EXPECT_LT(relativeDifference(C, explicitGalerkin(A2, nodal, &g.fixed)), 1e-13);
  EXPECT_GT((Eigen::MatrixXd(C) - before).cwiseAbs().maxCoeff(), 1e-3);

  // The next level: plan the coarse matrix itself (no mask).
  for (int c = 0; c < C.cols(); ++c)
    if (C.coeff(c, c) == 0.0) C.coeffRef(c, c) = 1.0;  // the multigrid's identity rows
  C.makeCompressed();
  std::vector<Eigen::Vector3i> coarser;
  const SparseMatrix nodal2 = trilinearProlongation(coarse, coarser);
  GalerkinPlan plan2(C, nodal2, nullptr);
  SparseMatrix C2;
  plan2.compute(C, C2);
  EXPECT_LT(relativeDifference(C2, explicitGalerkin(C, nodal2, nullptr)), 1e-13);
}

TEST(GalerkinPlan, LargePlansSumInFixedChunksBitIdenticalForEveryThreadCount) {
  const CutLattice g = makeLattice(20);  // past the chunking threshold
  std::vector<Eigen::Vector3i> coarse;
  const SparseMatrix nodal = trilinearProlongation(g.nodes, coarse);
  const SparseMatrix A = assemble(g, 3);
  GalerkinPlan plan(A, nodal, &g.fixed);
  ASSERT_GE(plan.termCount(), 500000u);
  SparseMatrix one, two, four;
  plan.compute(A, one, 1);
  plan.compute(A, two, 2);
  plan.compute(A, four, 4);
  ASSERT_EQ(one.nonZeros(), four.nonZeros());
  for (Eigen::Index k = 0; k < one.nonZeros(); ++k) {
    ASSERT_EQ(one.valuePtr()[k], two.valuePtr()[k]);
    ASSERT_EQ(one.valuePtr()[k], four.valuePtr()[k]);
  }
  // Still the explicit product (compared sparse: the coarse matrix is large).
  const SparseMatrix expected = explicitGalerkin(A, nodal, &g.fixed);
  const SparseMatrix difference = one - expected;
  double largest = 0.0, scale = 0.0;
  for (Eigen::Index k = 0; k < difference.nonZeros(); ++k) largest = std::max(largest, std::abs(difference.valuePtr()[k]));
  for (Eigen::Index k = 0; k < expected.nonZeros(); ++k) scale = std::max(scale, std::abs(expected.valuePtr()[k]));
  EXPECT_LT(largest, 1e-13 * scale);
  EXPECT_GT(scale, 0.0);
}

TEST(GalerkinPlan, RejectsAnotherPattern) {
  const CutLattice g = makeLattice(9);
  std::vector<Eigen::Vector3i> coarse;
  GalerkinPlan plan(assemble(g, 3), trilinearProlongation(g.nodes, coarse), &g.fixed);
  const CutLattice other = makeLattice(8);
  const SparseMatrix B = assemble(other, 3);
  EXPECT_FALSE(plan.matches(B));
  SparseMatrix C;
  EXPECT_THROW(plan.compute(B, C), std::logic_error);
}

}  // namespace
}  // namespace softfit
