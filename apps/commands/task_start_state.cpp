#include "apps/commands/task_start_state.h"

namespace softfit::apps {

TaskStartState::TaskStartState(const FitProblem& problem)
    : problem_(problem), values_(readParameterValues(*problem.setup().trajectory.model, InitialMotion{})) {}

void TaskStartState::restore(FitProblem& problem) const {
  problem = problem_;
  restoreParameterValues(values_, *problem.setup().trajectory.model);
}

}  // namespace softfit::apps
