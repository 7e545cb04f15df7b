#pragma once
// Backtracking Armijo line search along a step direction of the incremental potential,
// shared by the L-BFGS and projective-dynamics step solvers.
#include "forward/integrators/step_problem.h"
#include "forward/nonlinear/step_solver.h"

namespace softfit {

// Relative size of G's round-off: a predicted decrease below kStepRoundoff |G| is noise.
constexpr double kStepRoundoff = 1e-12;

struct StepTrial {
  VecX x, gradient;       // the accepted point; its gradient when haveGradient
  double value = 0.0;     // G(x)
  bool accepted = false;  // Armijo held (or the round-off rule below)
  bool haveGradient = false;
};

// Tries x + alpha d for alpha = 1, beta, beta^2, ... until G(x + alpha d) <= value +
// armijo alpha slope (slope = g.d < 0). The full step evaluates G and its gradient in one
// pass over the elements (it is usually accepted); backtracked trials the value only.
// acceptRoundoffFullStep: the full step is also accepted when it changes G by at most
// kStepRoundoff |G| (values no longer tell steps apart; the caller's decrement test
// decides convergence).
void backtrackStep(StepObjective& objective, const VecX& x, const VecX& d, double value, double slope,
                   const LineSearchSettings& settings, bool acceptRoundoffFullStep, StepTrial& trial);

}  // namespace softfit
