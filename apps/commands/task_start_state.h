#pragma once
// Independent tasks on one fit problem (multi-start fits, sweep points) must not see
// each other: ParameterSpace::apply sets E from the model's current Lame parameters'
// nu and nu from their E, so the last bits of an evaluation depend on the values the
// model held before it. Capturing the problem and the model's parameter values once,
// and restoring both before every task, makes a task's result depend only on its own
// inputs, so it is the same bits in whichever process, and after whichever tasks, it
// runs.
#include "adjoint/parameter_descriptor.h"
#include "optim/fit_problem.h"

namespace softfit::apps {

class TaskStartState {
 public:
  explicit TaskStartState(const FitProblem& problem);
  // Puts `problem` (a copy of the captured one's setup) and its model back as captured.
  void restore(FitProblem& problem) const;

 private:
  FitProblem problem_;
  ParameterValues values_;
};

}  // namespace softfit::apps
