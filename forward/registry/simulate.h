#pragma once
// Runs a TrajectorySetup with the integrator the registry builds for its settings.
#include <functional>

#include "forward/integrators/trajectory_setup.h"
#include "forward/registry/integrator_registry.h"

namespace softfit {

// Runs the trajectory (Simulator with the setup's integrator): every state with
// keepStates, else the initial and final ones. Throws SolveError naming the failed step.
Trajectory simulate(const TrajectorySetup& setup, bool keepStates,
                    const std::function<void(const StepReport&)>& onStep = {});

}  // namespace softfit
