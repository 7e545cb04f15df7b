#include "forward/integrators/incremental_potential_integrator.h"

#include <sstream>

#include "forward/errors.h"
#include "forward/integrators/step_problem.h"

namespace softfit {

IncrementalPotentialIntegrator::IncrementalPotentialIntegrator(const IntegratorSettings& settings)
    : settings_(settings), newton_(settings.newton) {}

IncrementalPotentialCoefficients IncrementalPotentialIntegrator::coefficients(const PhysicalModel& model,
                                                                              const State& current,
                                                                              const State* previous, double h) const {
  IncrementalPotentialCoefficients c;
  const VecX& xn = current.x;
  const VecX& vn = current.v;
  c.z = VecX::Zero(xn.size());
  c.dampingReference = xn;
  switch (settings_.type) {
    case IntegratorType::BDF2:
      if (previous) {
        c.a = 4.0 / 9.0;
        c.y = (4.0 * xn - previous->x) / 3.0 + h * (8.0 * vn - 2.0 * previous->v) / 9.0;
        c.dampingWeight = 2.0 * h / 3.0;
        c.dampingReference = (4.0 * xn - previous->x) / 3.0;
        break;
      }
      [[fallthrough]];
    case IntegratorType::BackwardEuler:
      c.y = xn + h * vn;
      c.dampingWeight = h;
      break;
    case IntegratorType::ImplicitMidpoint:
      c.b = 0.5;
      c.z = 0.5 * xn;
      c.y = xn + h * vn;
      c.dampingWeight = 0.5 * h;
      break;
    case IntegratorType::NewmarkTrapezoid: {
      c.a = 0.25;
      VecX gradient = VecX::Zero(xn.size());
      model.addPotentialGradient(xn, gradient);
      c.y = xn + h * vn - 0.25 * h * h * gradient.cwiseQuotient(model.mass());
      c.dampingWeight = 0.5 * h;
      break;
    }
    default: throw std::logic_error("IncrementalPotentialIntegrator: not an incremental-potential scheme");
  }
  return c;
}

VecX IncrementalPotentialIntegrator::velocity(const VecX& x, const State& current, const State* previous,
                                              double h) const {
  switch (settings_.type) {
    case IntegratorType::BDF2:
      if (previous) return (3.0 * x - 4.0 * current.x + previous->x) / (2.0 * h);
      return (x - current.x) / h;
    case IntegratorType::BackwardEuler: return (x - current.x) / h;
    default: return 2.0 * (x - current.x) / h - current.v;
  }
}

State IncrementalPotentialIntegrator::step(PhysicalModel& model, const State& current, const State* previous,
                                           double dt) {
  const StepProblem problem = makeStepProblem(model, settings_.type, current, previous, dt);

  State next;
  next.time = problem.time;
  // Initial guess: the inertial target (a full explicit step), with Dirichlet positions.
  next.x = problem.initialGuess;

  StepObjective objective(model, problem, {settings_.filter, settings_.filterEpsilon});
  newton_.options().stepTolerance = settings_.newton.stepTolerance * model.characteristicLength();
  const NewtonResult r = newton_.minimize(objective, next.x, problem.fixed);
  last_ = StepStatistics{r.iterations, r.converged, r.gradientNorm, r.iterations};
  if (!r.converged) {
    std::ostringstream msg;
    msg << integratorTypeName(settings_.type) << " step to t = " << next.time << ": Newton did not converge in "
        << r.iterations << " iterations (gradient " << r.gradientNorm << ", last step " << r.lastStepNorm << ")";
    throw SolveError(msg.str());
  }
  next.v = velocity(next.x, current, previous, dt);
  model.dirichlet.applyVelocities(next.time, next.v);
  return next;
}

}  // namespace softfit
