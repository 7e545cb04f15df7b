#pragma once
// Time integrators advance a PhysicalModel by one step. All states of a run can be
// kept as a checkpoint list (forward/integrators/trajectory.h) for the adjoint. Their
// settings are in integrator_settings.h; makeIntegrator (forward/registry/) builds one.
#include "forward/energies/physical_model.h"
#include "forward/integrators/integrator_settings.h"
#include "forward/integrators/step_adjoint.h"

namespace softfit {

struct State {
  VecX x;             // positions (3N)
  VecX v;             // velocities (3N)
  double time = 0.0;
};

struct StepStatistics {
  int iterations = 0;       // Newton iterations or PCG iterations
  bool converged = true;
  double residual = 0.0;    // final gradient / relative residual norm
  int factorizations = 0;
};

class TimeIntegrator {
 public:
  virtual ~TimeIntegrator() = default;
  // Returns the state at current.time + dt. `previous` is the state before `current`
  // (nullptr on the first step); multistep schemes use it. Throws SolveError when
  // the step's solve fails.
  virtual State step(PhysicalModel& model, const State& current, const State* previous, double dt) = 0;
  // Reverse pass of the step that produced `next` from `current` (and `previous`):
  // the implicit function theorem on the step's residual with its exact (unfiltered)
  // Jacobian, evaluated at the stored states (matrices are recomputed, never stored).
  // Throws SolveError when the adjoint system cannot be solved.
  virtual void adjointStep(PhysicalModel& model, const State& next, const State& current, const State* previous,
                           double dt, StepAdjoint& adjoint) = 0;
  virtual IntegratorType type() const = 0;
  // Drops anything cached from earlier steps (factorizations, constant operators);
  // called at the start of every run so parameter changes between runs take effect.
  virtual void reset() {}
  const StepStatistics& lastStep() const { return last_; }

 protected:
  StepStatistics last_;
};

}  // namespace softfit
