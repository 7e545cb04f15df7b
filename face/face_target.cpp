#include "face/face_target.h"

namespace softfit::face {

double targetLoss(const FaceTarget& target, const VecX& x, double modelSize, VecX* gradient) {
  const int n = static_cast<int>(target.nodes.size());
  if (n == 0) return 0.0;
  const double scale = 1.0 / (n * modelSize * modelSize);
  double loss = 0.0;
  for (int k = 0; k < n; ++k) {
    const double w = target.weights.size() ? target.weights[k] : 1.0;
    const Vec3 r = x.segment<3>(3 * target.nodes[k]) - target.points.row(k).transpose();
    loss += scale * w * r.squaredNorm();
    if (gradient) gradient->segment<3>(3 * target.nodes[k]) += 2.0 * scale * w * r;
  }
  return loss;
}

VecX correspondenceErrors(const FaceTarget& target, const VecX& x) {
  VecX e(target.nodes.size());
  for (std::size_t k = 0; k < target.nodes.size(); ++k)
    e[k] = (x.segment<3>(3 * target.nodes[k]) - target.points.row(k).transpose()).norm();
  return e;
}

VecX nodeErrors(const FaceTarget& target, const VecX& x, int nodeCount) {
  VecX e = VecX::Zero(nodeCount);
  const VecX c = correspondenceErrors(target, x);
  for (std::size_t k = 0; k < target.nodes.size(); ++k) e[target.nodes[k]] = c[k];
  return e;
}

}  // namespace softfit::face
