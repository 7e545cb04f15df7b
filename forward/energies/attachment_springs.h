#pragma once
// Zero-rest-length springs pulling nodes to target points: E = sum k/2 ||x_i - t_i||^2.
#include <vector>

#include "forward/solvers/block_sparse_pattern.h"
#include "forward/types.h"

namespace softfit {

struct AttachmentSpring {
  int node = 0;
  Vec3 target = Vec3::Zero();
  double stiffness = 0.0;
};

class AttachmentSprings {
 public:
  explicit AttachmentSprings(std::vector<AttachmentSpring> springs = {}) : springs_(std::move(springs)) {}
  const std::vector<AttachmentSpring>& springs() const { return springs_; }
  std::vector<AttachmentSpring>& springs() { return springs_; }
  bool empty() const { return springs_.empty(); }

  double energy(const VecX& x) const;
  void addGradient(const VecX& x, VecX& gradient) const;
  void addHessian(BlockAssembler& H) const;

 private:
  std::vector<AttachmentSpring> springs_;
};

}  // namespace softfit
