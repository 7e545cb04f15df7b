#pragma once
// Runs a time integrator over many steps, optionally keeping every state in memory as
// the checkpoint list used by the adjoint, and reporting progress per step.
#include <functional>
#include <vector>

#include "forward/integrators/time_integrator.h"

namespace softfit {

struct Trajectory {
  std::vector<State> states;  // states[0] is the initial state
  size_t memoryBytes() const;
};

struct StepReport {
  int step = 0;        // 1-based index of the step just taken
  int totalSteps = 0;
  const State* state = nullptr;
  const StepStatistics* statistics = nullptr;
};

class Simulator {
 public:
  Simulator(PhysicalModel& model, std::unique_ptr<TimeIntegrator> integrator, double dt);

  // Runs `steps` steps from `initial`. With keepStates every state is stored in the
  // returned trajectory; otherwise only the initial and final states. `onStep` is
  // called after each step (output, progress). Throws SolveError (with the step
  // number) when a step fails.
  Trajectory run(const State& initial, int steps, bool keepStates,
                 const std::function<void(const StepReport&)>& onStep = {});

  TimeIntegrator& integrator() { return *integrator_; }
  double dt() const { return dt_; }

 private:
  PhysicalModel& model_;
  std::unique_ptr<TimeIntegrator> integrator_;
  double dt_;
};

// Initial state at rest positions, zero velocity, Dirichlet positions applied at t = 0.
State restState(const PhysicalModel& model);

}  // namespace softfit
