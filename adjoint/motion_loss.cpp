#include "adjoint/motion_loss.h"

namespace softfit {

double MassWeightedMotionLoss::evaluate(int /*frame*/, const State& s, VecX& gx, VecX& gv) {
  const VecX& m = model_.mass();
  const double scale = 1.0 / model_.totalMass();
  const VecX dx = s.x - model_.restPositions();
  gx += scale * m.cwiseProduct(dx);
  gv += scale * velocityWeight_ * m.cwiseProduct(s.v);
  return scale * (0.5 * dx.dot(m.cwiseProduct(dx)) + 0.5 * velocityWeight_ * s.v.dot(m.cwiseProduct(s.v)));
}

}  // namespace softfit
