#include "forward/solvers/lbfgs_two_loop.h"

#include <cmath>
#include <vector>

namespace softfit {

void LbfgsHistory::clear() {
  s_.clear();
  y_.clear();
  rho_.clear();
}

bool LbfgsHistory::push(const VecX& s, const VecX& y, double curvatureFloor) {
  const double sy = s.dot(y);
  if (!(sy > curvatureFloor * s.norm() * y.norm()) || window_ <= 0) return false;
  if (size() == window_) {
    s_.pop_front();
    y_.pop_front();
    rho_.pop_front();
  }
  s_.push_back(s);
  y_.push_back(y);
  rho_.push_back(1.0 / sy);
  return true;
}

VecX LbfgsHistory::apply(const VecX& q0, const std::function<VecX(const VecX&)>& initialSolve) const {
  VecX q = q0;
  const int m = size();
  std::vector<double> alpha(m);
  for (int i = m - 1; i >= 0; --i) {
    alpha[i] = rho_[i] * s_[i].dot(q);
    q -= alpha[i] * y_[i];
  }
  VecX r = initialSolve(q);
  for (int i = 0; i < m; ++i) {
    const double beta = rho_[i] * y_[i].dot(r);
    r += (alpha[i] - beta) * s_[i];
  }
  return r;
}

}  // namespace softfit
