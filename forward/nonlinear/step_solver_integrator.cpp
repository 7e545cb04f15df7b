#include "forward/nonlinear/step_solver_integrator.h"

#include <sstream>

#include "forward/errors.h"

namespace softfit {

StepSolverIntegrator::StepSolverIntegrator(const IntegratorSettings& integrator, const StepSolverSettings& solver)
    : settings_(integrator), solver_(makeStepSolver(solver)), velocityAndAdjoint_(integrator) {
  if (integrator.type == IntegratorType::NewmarkTheta || integrator.type == IntegratorType::QuasiStatic)
    throw InputError("integrator.type = '" + integratorTypeName(integrator.type) +
                     "': step solvers need an incremental-potential scheme");
}

State StepSolverIntegrator::step(PhysicalModel& model, const State& current, const State* previous, double dt) {
  const StepProblem problem = makeStepProblem(model, settings_.type, current, previous, dt);
  StepObjective objective(model, problem, solver_->settings().projection);
  State next;
  next.time = problem.time;
  next.x = problem.initialGuess;
  lastSolve_ = solver_->solve(objective, next.x);
  last_ = StepStatistics{lastSolve_.iterations, lastSolve_.converged, lastSolve_.decrement, lastSolve_.factorizations};
  if (!lastSolve_.converged && solver_->settings().decrementTolerance > 0.0) {
    std::ostringstream msg;
    msg << stepSolverTypeName(solver_->type()) << " step to t = " << next.time << " did not converge in "
        << lastSolve_.iterations << " iterations (decrement " << lastSolve_.decrement << ")";
    throw SolveError(msg.str());
  }
  next.v = velocityAndAdjoint_.velocity(next.x, current, previous, dt);
  model.dirichlet.applyVelocities(next.time, next.v);
  return next;
}

void StepSolverIntegrator::adjointStep(PhysicalModel& model, const State& next, const State& current,
                                       const State* previous, double dt, StepAdjoint& adjoint) {
  velocityAndAdjoint_.adjointStep(model, next, current, previous, dt, adjoint);
}

}  // namespace softfit
