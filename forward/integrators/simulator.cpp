#include "forward/integrators/simulator.h"

#include <sstream>

#include "forward/errors.h"

namespace softfit {

size_t Trajectory::memoryBytes() const {
  size_t bytes = 0;
  for (const auto& s : states) bytes += sizeof(double) * static_cast<size_t>(s.x.size() + s.v.size());
  return bytes;
}

Simulator::Simulator(PhysicalModel& model, std::unique_ptr<TimeIntegrator> integrator, double dt)
    : model_(model), integrator_(std::move(integrator)), dt_(dt) {
  if (!(dt > 0.0)) {
    std::ostringstream msg;
    msg << "time.dt = " << dt << ": must be positive";
    throw InputError(msg.str());
  }
}

Trajectory Simulator::run(const State& initial, int steps, bool keepStates,
                          const std::function<void(const StepReport&)>& onStep) {
  integrator_->reset();
  Trajectory trajectory;
  trajectory.states.reserve(keepStates ? steps + 1 : 2);
  trajectory.states.push_back(initial);
  State previous, current = initial;
  bool havePrevious = false;
  for (int s = 1; s <= steps; ++s) {
    State next;
    try {
      next = integrator_->step(model_, current, havePrevious ? &previous : nullptr, dt_);
    } catch (const SolveError& e) {
      std::ostringstream msg;
      msg << "step " << s << " of " << steps << " failed: " << e.what();
      throw SolveError(msg.str());
    }
    if (!next.x.allFinite() || !next.v.allFinite()) {
      std::ostringstream msg;
      msg << "step " << s << " of " << steps << " produced non-finite positions or velocities";
      throw SolveError(msg.str());
    }
    previous = std::move(current);
    havePrevious = true;
    current = std::move(next);
    if (keepStates) trajectory.states.push_back(current);
    if (onStep) onStep(StepReport{s, steps, &current, &integrator_->lastStep()});
  }
  if (!keepStates && steps > 0) trajectory.states.push_back(current);
  return trajectory;
}

State restState(const PhysicalModel& model) {
  State s;
  s.x = model.restPositions();
  s.v = VecX::Zero(model.dofCount());
  s.time = 0.0;
  model.dirichlet.applyPositions(0.0, s.x);
  return s;
}

}  // namespace softfit
