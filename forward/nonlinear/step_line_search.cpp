#include "forward/nonlinear/step_line_search.h"

#include <cmath>

namespace softfit {

void backtrackStep(StepObjective& objective, const VecX& x, const VecX& d, double value, double slope,
                   const LineSearchSettings& settings, bool acceptRoundoffFullStep, StepTrial& trial) {
  trial.accepted = false;
  trial.value = value;
  double alpha = 1.0;
  for (int k = 0; k < settings.maxSteps; ++k, alpha *= settings.backtrack) {
    trial.x = x + alpha * d;
    trial.haveGradient = k == 0;
    trial.value = trial.haveGradient ? objective.valueAndGradient(trial.x, trial.gradient) : objective.value(trial.x);
    if (!std::isfinite(trial.value)) continue;
    const bool atRoundoff =
        acceptRoundoffFullStep && k == 0 && std::abs(trial.value - value) <= kStepRoundoff * std::abs(value);
    if (trial.value <= value + settings.armijo * alpha * slope || atRoundoff) {
      trial.accepted = true;
      return;
    }
  }
}

}  // namespace softfit
