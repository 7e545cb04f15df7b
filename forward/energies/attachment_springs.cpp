#include "forward/energies/attachment_springs.h"

namespace softfit {

double AttachmentSprings::energy(const VecX& x) const {
  double total = 0.0;
  for (const auto& s : springs_) total += 0.5 * s.stiffness * (x.segment<3>(3 * s.node) - s.target).squaredNorm();
  return total;
}

void AttachmentSprings::addGradient(const VecX& x, VecX& gradient) const {
  for (const auto& s : springs_) gradient.segment<3>(3 * s.node) += s.stiffness * (x.segment<3>(3 * s.node) - s.target);
}

void AttachmentSprings::addHessian(BlockAssembler& H) const {
  for (const auto& s : springs_) H.addBlock(s.node, s.node, s.stiffness * Mat3::Identity());
}

}  // namespace softfit
