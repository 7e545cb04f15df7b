#include "observations/robust_kernel.h"

#include <cmath>

#include "forward/errors.h"

namespace softfit {

double RobustKernel::value(double d) const {
  if (huberDelta > 0.0 && d > huberDelta) return huberDelta * (d - 0.5 * huberDelta);
  return 0.5 * d * d;
}

double RobustKernel::gradientScale(double d) const {
  if (huberDelta > 0.0 && d > huberDelta) return huberDelta / d;
  return 1.0;
}

void validateRobustKernel(const RobustKernel& kernel) {
  if (!(kernel.huberDelta >= 0.0) || !std::isfinite(kernel.huberDelta))
    throw InputError("huber_delta: must be >= 0 (0 disables the Huber loss)");
}

}  // namespace softfit
