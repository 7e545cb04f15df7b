#include "forward/solvers/block_sparse_pattern.h"

#include <algorithm>
#include <stdexcept>

namespace softfit {

BlockSparsePattern::BlockSparsePattern(int nodeCount, const std::vector<std::vector<int>>& cliques)
    : nodeCount_(nodeCount) {
  std::vector<std::vector<int>> neighbours(nodeCount);
  for (int i = 0; i < nodeCount; ++i) neighbours[i].push_back(i);
  for (const auto& clique : cliques)
    for (int a : clique)
      for (int b : clique) neighbours[b].push_back(a);
  columnStart_.assign(nodeCount + 1, 0);
  for (int c = 0; c < nodeCount; ++c) {
    auto& n = neighbours[c];
    std::sort(n.begin(), n.end());
    n.erase(std::unique(n.begin(), n.end()), n.end());
    columnStart_[c + 1] = columnStart_[c] + static_cast<int>(n.size());
  }
  rowBlocks_.reserve(columnStart_.back());
  for (const auto& n : neighbours) rowBlocks_.insert(rowBlocks_.end(), n.begin(), n.end());
  // FNV-1a over the node count, the column starts and the row lists.
  std::uint64_t h = 1469598103934665603ull;
  auto mix = [&h](int v) {
    h ^= static_cast<std::uint32_t>(v);
    h *= 1099511628211ull;
  };
  mix(nodeCount_);
  for (int v : columnStart_) mix(v);
  for (int v : rowBlocks_) mix(v);
  fingerprint_ = h;
}

SparseMatrix BlockSparsePattern::zeroMatrix() const {
  const int n = 3 * nodeCount_;
  SparseMatrix m(n, n);
  Eigen::VectorXi perColumn(n);
  for (int c = 0; c < nodeCount_; ++c)
    for (int k = 0; k < 3; ++k) perColumn[3 * c + k] = 3 * (columnStart_[c + 1] - columnStart_[c]);
  m.reserve(perColumn);
  for (int c = 0; c < nodeCount_; ++c)
    for (int k = 0; k < 3; ++k)
      for (int p = columnStart_[c]; p < columnStart_[c + 1]; ++p)
        for (int r = 0; r < 3; ++r) m.insert(3 * rowBlocks_[p] + r, 3 * c + k) = 0.0;
  m.makeCompressed();
  return m;
}

int BlockSparsePattern::blockPosition(int row, int col) const {
  const auto begin = rowBlocks_.begin() + columnStart_[col];
  const auto end = rowBlocks_.begin() + columnStart_[col + 1];
  const auto it = std::lower_bound(begin, end, row);
  if (it == end || *it != row) return -1;
  return static_cast<int>(it - begin);
}

BlockAssembler::BlockAssembler(const BlockSparsePattern& pattern, SparseMatrix& matrix)
    : pattern_(pattern), matrix_(matrix) {}

void BlockAssembler::setZero() {
  std::fill(matrix_.valuePtr(), matrix_.valuePtr() + matrix_.nonZeros(), 0.0);
}

void BlockAssembler::addBlock(int a, int b, const Mat3& m) {
  const int p = pattern_.blockPosition(a, b);
  if (p < 0) throw std::logic_error("BlockAssembler: block not in sparsity pattern");
  addBlockAt(p, b, m);
}

void BlockAssembler::addDiagonal(const VecX& diagonal) {
  for (int c = 0; c < pattern_.nodeCount(); ++c) {
    Mat3 block = diagonal.segment<3>(3 * c).asDiagonal();
    addBlock(c, c, block);
  }
}

}  // namespace softfit
