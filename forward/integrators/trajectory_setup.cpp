#include "forward/integrators/trajectory_setup.h"

#include <cmath>
#include <sstream>

#include "forward/errors.h"

namespace softfit {

void TrajectorySetup::validate(const std::string& context) const {
  std::ostringstream msg;
  if (!model) {
    msg << context << ": no model";
  } else if (!(dt > 0.0) || !std::isfinite(dt)) {
    msg << context << ": time.dt = " << dt << ": must be a positive number";
  } else if (steps < 0) {
    msg << context << ": time.steps = " << steps << ": must be >= 0";
  } else if (initial.x.size() != model->dofCount() || initial.v.size() != model->dofCount()) {
    msg << context << ": the initial state has " << initial.x.size() << " / " << initial.v.size()
        << " position / velocity entries, the model " << model->dofCount() << " dofs";
  } else {
    return;
  }
  throw InputError(msg.str());
}

}  // namespace softfit
