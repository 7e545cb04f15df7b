#include "forward/registry/simulate.h"

#include "forward/registry/integrator_registry.h"

namespace softfit {

Trajectory simulate(const TrajectorySetup& setup, bool keepStates, const std::function<void(const StepReport&)>& onStep) {
  setup.validate();
  Simulator simulator(*setup.model, makeIntegrator(setup.integrator), setup.dt);
  return simulator.run(setup.initial, setup.steps, keepStates, onStep);
}

}  // namespace softfit
