#pragma once
// The theta family between implicit midpoint (theta = 1/2) and backward Euler
// (theta = 1) as an incremental potential (docs/theory.rst, section 2):
//   x_{n+1} = x_n + h ((1 - theta) v_n + theta v_{n+1}),
//   v_{n+1} = v_n + h M^-1 f(x_n + theta (x_{n+1} - x_n))
//   <=> x_{n+1} = argmin 1/2 |x - (x_n + h v_n)|_M^2 + h^2 E(theta x + (1 - theta) x_n)
//                        + theta h / 2 (x - x_n)^T D (x - x_n),
// minimized with StepObjective (forward/integrators/step_problem.h).
#include "forward/integrators/step_problem.h"

namespace softfit {

IncrementalPotentialCoefficients thetaSchemeCoefficients(const State& current, double theta, double dt);
VecX thetaSchemeVelocity(const VecX& x, const State& current, double theta, double dt);

}  // namespace softfit
