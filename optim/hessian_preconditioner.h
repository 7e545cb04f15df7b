#pragma once
// A linear change of variables q = q0 + T u in which a fit's cost is close to isotropic,
// so that a gradient method takes Newton-like steps from its first iteration. Fits of a
// few physical parameters are badly scaled and correlated (E against nu and the Rayleigh
// coefficients, the initial velocity against E): plain L-BFGS moves E and leaves the
// flat directions where they started for tens of iterations.
//
// H is a finite-difference Hessian at q0 (forward differences of the adjoint gradient,
// n more evaluations, symmetrized), or for least-squares costs 1/2 |r(q)|^2 the
// Gauss-Newton matrix J^T J (J by forward differences of the residuals: n + 1 forward
// runs without adjoint). Gauss-Newton steps follow curved valleys that Newton steps of
// the cost's quadratic model cut across (the Rayleigh coefficients against E and nu).
// With H = V diag(lambda) V^T, T = V diag(1/sqrt(mu)) with mu = max(|lambda|, floor x
// max|lambda|): negative curvature is taken by its size (saddle-free), and flat
// directions are bounded by the floor.
#include <functional>

#include "forward/types.h"

namespace softfit {

// r(q) of a least-squares cost 1/2 |r|^2 (same length at every q); may throw SolveError.
using ResidualFunction = std::function<VecX(const VecX& q)>;

struct HessianPreconditionerOptions {
  double step = 1e-3;    // finite-difference step in internal coordinates
  double floor = 1e-6;   // smallest eigenvalue kept, relative to the largest
  // Re-take H (n more evaluations) at the best point after every `refreshEvery`
  // iterations and continue in its coordinates; 0 = only at the start. For costs whose
  // curvature changes along the way (a start 25% off in E): each stage's first step is
  // then the Newton step of the current H.
  int refreshEvery = 0;
  // When set: H = J^T J of these residuals (Gauss-Newton) instead of differences of the
  // gradient. The cost must be 1/2 |r|^2.
  ResidualFunction gaussNewtonResiduals;
};

// Forward-difference Hessian from gradients: column i = (g(q0 + h e_i) - g0) / h, then
// (H + H^T) / 2. `gradientAt` returns false when the point cannot be evaluated (a failed
// forward solve); that column is then taken with -h, and if that fails too the
// function returns false.
using GradientAt = std::function<bool(const VecX& q, VecX& gradient)>;
bool finiteDifferenceHessian(const GradientAt& gradientAt, const VecX& q0, const VecX& g0, double step, MatX& H);

// Gauss-Newton matrix J^T J at q0, J column i = (r(q0 + h e_i) - r(q0)) / h (with -h
// where q0 + h e_i cannot be evaluated). Returns false when r(q0) or both sides of a column
// fail (SolveError), or the residuals are not finite or change length. `runs` counts the
// residual evaluations.
bool gaussNewtonHessian(const ResidualFunction& residuals, const VecX& q0, double step, MatX& H, int& runs);

// r0 = r(q0) and its Jacobian J by forward differences as above; the same failures.
bool residualJacobian(const ResidualFunction& residuals, const VecX& q0, double step, VecX& r0, MatX& J, int& runs);

struct LinearPreconditioner {
  VecX origin;     // q0
  MatX transform;  // T (n x n, invertible)
  MatX inverse;    // T^{-1}

  VecX toInternal(const VecX& u) const { return origin + transform * u; }
  VecX fromInternal(const VecX& q) const { return inverse * (q - origin); }
  // dL/du = T^T dL/dq.
  VecX gradientFromInternal(const VecX& gq) const { return transform.transpose() * gq; }
};

// T from a symmetric H as above. Throws std::invalid_argument for a non-finite H or one
// whose largest |eigenvalue| is 0.
LinearPreconditioner hessianPreconditioner(const MatX& H, const VecX& q0, double floor);

}  // namespace softfit
