#pragma once
// Central finite differences for derivative tests.
#include <cstdlib>
#include <functional>

#include "forward/types.h"

namespace softfit::testing {

inline VecX centralGradient(const std::function<double(const VecX&)>& f, const VecX& x, double h) {
  VecX g(x.size());
  VecX xp = x;
  for (int i = 0; i < x.size(); ++i) {
    xp[i] = x[i] + h;
    const double fp = f(xp);
    xp[i] = x[i] - h;
    const double fm = f(xp);
    xp[i] = x[i];
    g[i] = (fp - fm) / (2.0 * h);
  }
  return g;
}

inline MatX centralJacobian(const std::function<VecX(const VecX&)>& f, const VecX& x, double h) {
  const VecX f0 = f(x);
  MatX J(f0.size(), x.size());
  VecX xp = x;
  for (int i = 0; i < x.size(); ++i) {
    xp[i] = x[i] + h;
    const VecX fp = f(xp);
    xp[i] = x[i] - h;
    const VecX fm = f(xp);
    xp[i] = x[i];
    J.col(i) = (fp - fm) / (2.0 * h);
  }
  return J;
}

// Central-difference Jacobian of energy.addGradient (the Hessian check of an energy).
template <typename Energy>
MatX centralGradientJacobian(const Energy& energy, const VecX& x, double h) {
  return centralJacobian(
      [&](const VecX& y) {
        VecX g = VecX::Zero(y.size());
        energy.addGradient(y, g);
        return g;
      },
      x, h);
}

// rest under a random affine map I + amount * Random (seeded by `seed`) plus 0.05 noise.
inline VecX randomlyDeformed(const VecX& rest, double amount, unsigned seed) {
  std::srand(seed);
  const Mat3 A = Mat3::Identity() + amount * Mat3::Random();
  VecX x = rest;
  for (int i = 0; i < x.size() / 3; ++i) x.segment<3>(3 * i) = A * rest.segment<3>(3 * i);
  return x + 0.05 * VecX::Random(x.size());
}

// ||a - b|| / max(||b||, floor)
inline double relativeError(const MatX& a, const MatX& b, double floor = 1e-12) {
  return (a - b).norm() / std::max(b.norm(), floor);
}

}  // namespace softfit::testing
