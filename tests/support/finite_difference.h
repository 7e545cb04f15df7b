#pragma once
// Central finite differences for derivative tests.
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

// ||a - b|| / max(||b||, floor)
inline double relativeError(const MatX& a, const MatX& b, double floor = 1e-12) {
  return (a - b).norm() / std::max(b.norm(), floor);
}

}  // namespace softfit::testing
