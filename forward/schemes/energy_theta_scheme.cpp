#include "forward/schemes/energy_theta_scheme.h"

namespace softfit {

IncrementalPotentialCoefficients thetaSchemeCoefficients(const State& current, double theta, double dt) {
  IncrementalPotentialCoefficients c;
  c.a = 1.0;
  c.b = theta;
  c.z = (1.0 - theta) * current.x;
  c.y = current.x + dt * current.v;
  c.dampingWeight = theta * dt;
  c.dampingReference = current.x;
  return c;
}

VecX thetaSchemeVelocity(const VecX& x, const State& current, double theta, double dt) {
  return (x - current.x) / (theta * dt) - ((1.0 - theta) / theta) * current.v;
}

}  // namespace softfit
