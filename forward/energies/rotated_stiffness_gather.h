#pragma once
// Assembly of sum_e blockdiag(R_e) K0_e blockdiag(R_e)^T (the warped-corotated and linear
// step stiffness, and their damping stiffness) by gathering: each lower-triangle block
// (I >= J) of the BlockSparsePattern sums R_e K0_e(a, b) R_e^T over the element blocks
// (a, b) that land on it (nodes[a] = I, nodes[b] = J), in increasing element order, and
// writes the sum and, for I > J, its transpose into block (J, I). Every block is computed
// by one thread and the order of its sums is fixed, so the result is bit-identical for
// every thread count; the upper triangle is the exact transpose of the lower one, at
// about half the work of rotating every element block.
#include <cstdint>
#include <vector>

#include "forward/element.h"
#include "forward/math/parallel_ranges.h"
#include "forward/solvers/block_sparse_pattern.h"

namespace softfit {

class RotatedStiffnessGather {
 public:
  RotatedStiffnessGather() = default;
  // Throws std::logic_error when an element block is not in the pattern.
  RotatedStiffnessGather(const std::vector<Element>& elements, const BlockSparsePattern& pattern);

  // Adds sum_e blockdiag(R_e) K0_e blockdiag(R_e)^T into H (whose pattern must have
  // this gather's fingerprint); K0_e is 3n x 3n for element e's n nodes.
  // restStiffness(e) returns K0_e.
  template <typename RestStiffness>
  void add(const RestStiffness& restStiffness, const std::vector<Mat3>& rotations, int threads,
           BlockAssembler& H) const;
  std::uint64_t fingerprint() const { return fingerprint_; }
  bool empty() const { return targetStart_.size() < 2; }

 private:
  struct Target {
    int column, position;              // block (I, J): block column J, position of I in it
    int mirrorColumn, mirrorPosition;  // block (J, I); mirrorColumn < 0 on the diagonal
  };
  struct Term {
    int element;
    int offset;  // of block (a, b) in K0_e's column-major storage: 3 b (3 n) + 3 a
  };
  [[noreturn]] static void throwPatternMismatch();
  std::vector<Target> targets_;
  std::vector<int> targetStart_;  // terms of target t: [targetStart_[t], targetStart_[t + 1])
  std::vector<Term> terms_;
  std::vector<int> stride_;  // per element: 3 n (K0_e's column stride)
  std::uint64_t fingerprint_ = 0;
  // ~60-500 flops per block: a thread pays from a few thousand blocks on.
  static constexpr int kTargetsPerThread = 4096;
};

template <typename RestStiffness>
void RotatedStiffnessGather::add(const RestStiffness& restStiffness, const std::vector<Mat3>& rotations, int threads,
                                 BlockAssembler& H) const {
  if (H.pattern().fingerprint() != fingerprint_) throwPatternMismatch();
  const int n = static_cast<int>(targets_.size());
  forEachRangeInParallel(n, threads, [&](int begin, int end) {
    for (int t = begin; t < end; ++t) {
      Mat3 sum = Mat3::Zero();
      for (int i = targetStart_[t]; i < targetStart_[t + 1]; ++i) {
        const Term& term = terms_[i];
        const Mat3& R = rotations[term.element];
        const Eigen::Map<const Mat3, 0, Eigen::OuterStride<>> K(restStiffness(term.element).data() + term.offset,
                                                                 Eigen::OuterStride<>(stride_[term.element]));
        sum += R * K * R.transpose();
      }
      const Target& target = targets_[t];
      H.addBlockAt(target.position, target.column, sum);
      if (target.mirrorColumn >= 0) H.addBlockAt(target.mirrorPosition, target.mirrorColumn, sum.transpose());
    }
  }, kTargetsPerThread);
}

}  // namespace softfit
