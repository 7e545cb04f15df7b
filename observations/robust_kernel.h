#pragma once
// Robust penalty rho(d) of a point-to-surface distance d >= 0:
//   huberDelta = 0:  rho(d) = d^2 / 2                       (plain least squares)
//   huberDelta > 0:  rho(d) = d^2 / 2                 for d <= delta,
//                    rho(d) = delta * (d - delta / 2) for d >  delta (Huber; C^1).
namespace softfit {

struct RobustKernel {
  double huberDelta = 0.0;

  double value(double d) const;
  // rho'(d) / d, finite at d = 0: the gradient of rho(|p - q|) w.r.t. q is
  // gradientScale(d) * (q - p).
  double gradientScale(double d) const;
};

// Throws InputError when huberDelta is negative or not finite.
void validateRobustKernel(const RobustKernel& kernel);

}  // namespace softfit
