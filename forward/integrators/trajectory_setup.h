#pragma once
// One trajectory as a value: the model, the integrator settings, the time step, the
// number of steps and the initial state. The simulator (simulate), the reverse pass
// (adjoint/trajectory_gradient.h) and the fit setup (optim/fit_problem.h) all take it, so
// dt and the step count travel together instead of through every layer. Run it with
// simulate (forward/registry/simulate.h).
#include <string>

#include "forward/integrators/simulator.h"

namespace softfit {

struct TrajectorySetup {
  PhysicalModel* model = nullptr;  // not owned; changed by the run (warped frames) and by parameter fits
  IntegratorSettings integrator;
  double dt = 0.0;  // > 0
  int steps = 0;    // >= 0
  State initial;

  // InputError prefixed with `context` for a missing model, a dt that is not a positive
  // finite number, a negative step count, or an initial state of the wrong size.
  void validate(const std::string& context = "trajectory") const;
};

}  // namespace softfit
