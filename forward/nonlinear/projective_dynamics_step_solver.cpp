#include "forward/nonlinear/projective_dynamics_step_solver.h"

#include <cmath>

#include "forward/errors.h"
#include "forward/nonlinear/iteration_recorder.h"

namespace softfit {

StepSolveResult ProjectiveDynamicsStepSolver::solve(StepObjective& objective, VecX& x) {
  const PhysicalModel& model = objective.model();
  if (model.elastic().model() != MaterialModel::ARAP)
    throw InputError("solver 'pd' (projective dynamics) needs material 'arap' (got '" +
                     materialModelName(model.elastic().model()) + "')");
  if (model.ground) throw InputError("solver 'pd' (projective dynamics) does not support ground contact");
  StepSolveResult result;
  IterationRecorder recorder(settings_.recordHistory, result.history);
  if (matrix_.prepare(objective, 1.0)) ++result.factorizations;
  const DofMask& fixed = objective.problem().fixed;
  const double tolerance = settings_.decrementTolerance * decrementScale(model, objective.problem());
  recorder.recordEvaluated(0, [&] { return objective.value(x); });
  VecX g;
  for (int it = 0; it < settings_.maxIterations; ++it) {
    objective.gradient(x, g);  // local step: R_e = polar(F_e) inside 2 mu (F - R)
    zeroConstrained(g, fixed);
    const VecX d = -matrix_.solve(g);  // global step
    result.decrement = -0.5 * g.dot(d);
    if (!std::isfinite(result.decrement)) throw SolveError("projective dynamics: step is not finite");
    if (tolerance > 0.0 && result.decrement <= tolerance) {
      result.converged = true;
      break;
    }
    x += d;
    result.iterations = it + 1;
    recorder.recordEvaluated(result.iterations, [&] { return objective.value(x); });
  }
  result.seconds = recorder.elapsed();
  result.value = objective.value(x);
  return result;
}

}  // namespace softfit
