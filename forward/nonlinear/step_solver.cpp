#include "forward/nonlinear/step_solver.h"

#include "forward/errors.h"
#include "forward/nonlinear/lbfgs_step_solver.h"
#include "forward/nonlinear/newton_step_solver.h"
#include "forward/nonlinear/projective_dynamics_step_solver.h"

namespace softfit {

StepSolverType parseStepSolverType(const std::string& name, const std::string& field) {
  if (name == "newton") return StepSolverType::Newton;
  if (name == "lbfgs") return StepSolverType::Lbfgs;
  if (name == "pd") return StepSolverType::ProjectiveDynamics;
  throw InputError(field + " = '" + name + "': unknown solver (valid: newton, lbfgs, pd)");
}

std::string stepSolverTypeName(StepSolverType type) {
  switch (type) {
    case StepSolverType::Newton: return "newton";
    case StepSolverType::Lbfgs: return "lbfgs";
    case StepSolverType::ProjectiveDynamics: return "pd";
  }
  return "newton";
}

std::unique_ptr<StepSolver> makeStepSolver(const StepSolverSettings& settings) {
  switch (settings.type) {
    case StepSolverType::Newton: return std::make_unique<NewtonStepSolver>(settings);
    case StepSolverType::Lbfgs: return std::make_unique<LbfgsStepSolver>(settings);
    case StepSolverType::ProjectiveDynamics: return std::make_unique<ProjectiveDynamicsStepSolver>(settings);
  }
  return nullptr;
}

}  // namespace softfit
