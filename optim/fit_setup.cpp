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
      checkParameterValue(*space.parameters()[it - names.begin()].descriptor, value, option + " " + name);
      transforms.transforms[it - names.begin()].toInternal(value);
    } catch (const InputError& e) {
      if (std::string(e.what()).rfind(option, 0) == 0) throw;
      throw InputError(option + " " + name + ": " + e.what());
    }
    p0[it - names.begin()] = value;
  }
  // The start values taken from the scene: within the fit's transform too, or named.
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (values.count(names[i])) continue;
    try {
      transforms.transforms[i].toInternal(p0[static_cast<Eigen::Index>(i)]);
    } catch (const InputError& e) {
      throw InputError(names[i] + " = " + formatValue(p0[static_cast<Eigen::Index>(i)]) +
                       " (the scene's value, where the fit starts): " + e.what() + "; give " + option + " " +
                       names[i] + "=VALUE");
    }
  }
}

}  // namespace softfit
