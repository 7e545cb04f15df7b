#include "adjoint/motion_loss.h"

namespace softfit {

double MassWeightedMotionLoss::evaluate(int /*frame*/, const State& s, VecX& gx, VecX& gv) {
  const VecX& w = weights_;
  const VecX dx = s.x - rest_;
  gx += w.cwiseProduct(dx);
  gv += velocityWeight_ * w.cwiseProduct(s.v);
  return 0.5 * dx.dot(w.cwiseProduct(dx)) + 0.5 * velocityWeight_ * s.v.dot(w.cwiseProduct(s.v));
}

}  // namespace softfit
