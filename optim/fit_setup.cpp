#include "optim/fit_setup.h"

#include <algorithm>

#include "forward/errors.h"
#include "forward/value_limits.h"

namespace softfit {

FitSetup makeFitSetup(TrajectorySetup trajectory, const FitObservations& observations, CheckpointOptions checkpoints) {
  FitSetup setup;
  setup.trajectory = std::move(trajectory);
  setup.trajectory.steps = observations.steps;  // up to the last observed frame
  setup.loss = observations.loss.get();
  setup.checkpoints = std::move(checkpoints);
  return setup;
}

OptimizerKind fitOptimizerKind(const std::string& name, const TrajectoryLoss& loss, const std::string& field) {
  return name == "auto" ? defaultOptimizer(loss) : parseOptimizerKind(name, field);
}

void applyStartValues(const std::map<std::string, double>& values, const ParameterSpace& space,
                      const TransformSet& transforms, const std::string& list, VecX& p0, const std::string& option) {
  const std::vector<std::string> names = space.names();
  for (const auto& [name, value] : values) {
    const auto it = std::find(names.begin(), names.end(), name);
    if (it == names.end()) throw InputError(option + ": \"" + name + "\" is not among " + list);
    try {  // the parameter's own range, named
      transforms.transforms[it - names.begin()].toInternal(value);
      const double limit = space.parameters()[it - names.begin()].descriptor->magnitudeLimit;
      if (limit > 0.0) requireMagnitude(value, limit, "value");
    } catch (const InputError& e) {
      throw InputError(option + " " + name + ": " + e.what());
    }
    p0[it - names.begin()] = value;
  }
}

}  // namespace softfit
