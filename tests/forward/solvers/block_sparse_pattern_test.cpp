#include "forward/solvers/block_sparse_pattern.h"

#include <gtest/gtest.h>

namespace softfit {
namespace {

TEST(BlockSparsePattern, AssemblyMatchesDenseReference) {
  const std::vector<std::vector<int>> cliques = {{0, 1, 2}, {2, 3}, {4}};
  BlockSparsePattern pattern(5, cliques);
  SparseMatrix A = pattern.zeroMatrix();
  BlockAssembler assembler(pattern, A);
  MatX dense = MatX::Zero(15, 15);
  std::srand(7);
  for (const auto& c : cliques)
    for (int a : c)
      for (int b : c) {
        const Mat3 m = Mat3::Random();
        assembler.addBlock(a, b, m);
        dense.block<3, 3>(3 * a, 3 * b) += m;
      }
  EXPECT_LT((MatX(A) - dense).norm(), 1e-15);
  EXPECT_EQ(pattern.blockPosition(0, 3), -1);  // never coupled
  EXPECT_THROW(assembler.addBlock(0, 3, Mat3::Identity()), std::logic_error);
  assembler.setZero();
  EXPECT_EQ(MatX(A).norm(), 0.0);
}

}  // namespace
}  // namespace softfit
