#include "forward/solvers/blas_threads.h"

#include <gtest/gtest.h>

#include "forward/solvers/cholesky_solver.h"

namespace softfit {
namespace {

SparseMatrix laplacian1d(int n) {
  SparseMatrix A(n, n);
  std::vector<Eigen::Triplet<double>> t;
  for (int i = 0; i < n; ++i) {
    t.emplace_back(i, i, 2.0 + 1e-3);
    if (i > 0) t.emplace_back(i, i - 1, -1.0);
  }
  A.setFromTriplets(t.begin(), t.end());
  return A;
}

TEST(BlasThreads, SmallFactorizationsAndSolvesRunSingleThreaded) {
  EXPECT_EQ(blasThreadsForFlops(0.0), 1);
  EXPECT_EQ(blasThreadsForFlops(0.5 * kParallelBlasFlops), 1);
  EXPECT_EQ(blasThreadsForFlops(kParallelBlasFlops), availableBlasThreads());
  CholeskySolver solver;
  EXPECT_EQ(currentBlasThreads(), 1);  // softfit's default once a solver exists
  ASSERT_TRUE(solver.factorize(laplacian1d(200)));
  EXPECT_GT(solver.factorFlops(), 0.0);
  EXPECT_LT(solver.factorFlops(), kParallelBlasFlops);
  EXPECT_EQ(currentBlasThreads(), 1);
  const VecX x = solver.solve(VecX::Ones(200));
  EXPECT_NEAR((laplacian1d(200).selfadjointView<Eigen::Lower>() * x - VecX::Ones(200)).norm(), 0.0, 1e-9);
}

TEST(BlasThreads, ScopeSetsAndRestoresTheCount) {
  CholeskySolver solver;  // single-threaded default
  {
    const BlasThreadScope scope(availableBlasThreads());
    EXPECT_EQ(currentBlasThreads(), availableBlasThreads());
    {
      const BlasThreadScope inner(1);
      EXPECT_EQ(currentBlasThreads(), 1);
    }
    EXPECT_EQ(currentBlasThreads(), availableBlasThreads());
  }
  EXPECT_EQ(currentBlasThreads(), 1);
  const BlasThreadScope tooMany(1000);  // clamped to what the environment allows
  EXPECT_EQ(currentBlasThreads(), availableBlasThreads());
}

TEST(BlasThreads, SerialOpenMpScopeIsRestored) {
  const bool before = openMpRegionsParallel();
  {
    const SerialOpenMpScope serial;
    EXPECT_FALSE(openMpRegionsParallel());
  }
  EXPECT_EQ(openMpRegionsParallel(), before);
}

}  // namespace
}  // namespace softfit
