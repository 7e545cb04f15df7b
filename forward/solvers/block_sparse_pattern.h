#pragma once
// Fixed sparsity pattern of a 3x3-block matrix over mesh nodes, built once from the
// node cliques (elements, springs) that couple nodes. Matrices are assembled into this
// pattern every step, so the symbolic Cholesky analysis is done once and reused.
#include <cstdint>
#include <vector>

#include "forward/types.h"

namespace softfit {

class BlockSparsePattern {
 public:
  BlockSparsePattern() = default;
  // Every node gets a diagonal block; nodes in a common clique are coupled.
  BlockSparsePattern(int nodeCount, const std::vector<std::vector<int>>& cliques);

  int nodeCount() const { return nodeCount_; }
  // A zero matrix (3N x 3N, both triangles stored) with this pattern.
  SparseMatrix zeroMatrix() const;
  // Position of node-block `row` within the list of blocks of block-column `col`;
  // -1 when the block is not in the pattern.
  int blockPosition(int row, int col) const;
  // Hash of the structure (node count and every block-column's rows): equal patterns
  // give equal fingerprints, so cached block positions can be checked against it.
  std::uint64_t fingerprint() const { return fingerprint_; }

 private:
  int nodeCount_ = 0;
  std::uint64_t fingerprint_ = 0;
  std::vector<int> columnStart_;  // per block-column, offset into rowBlocks_
  std::vector<int> rowBlocks_;    // sorted row node indices per block-column
};

// Adds 3x3 blocks into a matrix that has a BlockSparsePattern's structure.
class BlockAssembler {
 public:
  BlockAssembler(const BlockSparsePattern& pattern, SparseMatrix& matrix);
  void setZero();
  // Adds m to block (row node a, column node b). Throws std::logic_error if not in pattern.
  void addBlock(int a, int b, const Mat3& m);
  // Same, with position = pattern().blockPosition(a, b) looked up beforehand.
  void addBlockAt(int position, int b, const Mat3& m) {
    double* values = matrix_.valuePtr();
    const int* outer = matrix_.outerIndexPtr();
    for (int k = 0; k < 3; ++k) {
      double* column = values + outer[3 * b + k] + 3 * position;
      for (int r = 0; r < 3; ++r) column[r] += m(r, k);
    }
  }
  const BlockSparsePattern& pattern() const { return pattern_; }
  void addDiagonal(const VecX& diagonal);  // adds to the 3N diagonal entries

 private:
  const BlockSparsePattern& pattern_;
  SparseMatrix& matrix_;
};

}  // namespace softfit
