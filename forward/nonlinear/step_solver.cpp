#include "forward/nonlinear/step_solver.h"

#include "forward/errors.h"
#include "forward/nonlinear/lbfgs_step_solver.h"
#include "forward/nonlinear/newton_step_solver.h"
#include "forward/nonlinear/projective_dynamics_step_solver.h"

namespace softfit {

std::unique_ptr<StepSolver> makeStepSolver(const StepSolverSettings& settings) {
  switch (settings.type) {
    case StepSolverType::Newton: return std::make_unique<NewtonStepSolver>(settings);
    case StepSolverType::Lbfgs: return std::make_unique<LbfgsStepSolver>(settings);
    case StepSolverType::ProjectiveDynamics: return std::make_unique<ProjectiveDynamicsStepSolver>(settings);
  }
  return nullptr;
}

}  // namespace softfit
