#pragma once
// Limited-memory BFGS inverse-Hessian product by the two-loop recursion (Nocedal &
// Wright, Alg. 7.4) with a caller-provided initial inverse H0 (e.g. a prefactored
// M + h^2 L, Liu et al. 2017), so the solver owns the line search and stopping.
#include <deque>
#include <functional>

#include "forward/types.h"

namespace softfit {

class LbfgsHistory {
 public:
  explicit LbfgsHistory(int window = 5) : window_(window) {}
  int window() const { return window_; }
  int size() const { return static_cast<int>(s_.size()); }
  void clear();

  // Stores the pair (s = x_{k+1} - x_k, y = g_{k+1} - g_k), dropping the oldest beyond the
  // window. Skipped (returns false) unless s.y > curvatureFloor * |s| |y| (keeps the
  // approximation positive definite on non-convex stretches).
  bool push(const VecX& s, const VecX& y, double curvatureFloor = 1e-12);

  // Returns H q with H the L-BFGS inverse Hessian built on H0 = initialSolve (a linear
  // SPD solve r -> H0 r). The search direction is -apply(g, ...).
  VecX apply(const VecX& q, const std::function<VecX(const VecX&)>& initialSolve) const;

 private:
  int window_;
  std::deque<VecX> s_, y_;
  std::deque<double> rho_;  // 1 / (s.y)
};

}  // namespace softfit
