#pragma once
// Building a fit, as every front end does it (`softfit fit` and `softfit sweep`, the
// Python module): the setup of a trajectory and its observations (fit_loss.h), the start
// values, the optimizer.
#include <map>
#include <string>

#include "optim/fit_loss.h"
#include "optim/fit_problem.h"

namespace softfit {

// The fit of `trajectory` up to the last observed frame against the observations' loss
// (which must outlive the setup).
FitSetup makeFitSetup(TrajectorySetup trajectory, const FitObservations& observations,
                      CheckpointOptions checkpoints = {});

// "auto": defaultOptimizer(loss) (the gradient-only L-BFGS for a loss whose value jumps,
// else L-BFGS); any other name: parseOptimizerKind (InputError naming `field`).
OptimizerKind fitOptimizerKind(const std::string& name, const TrajectoryLoss& loss,
                               const std::string& field = "optimizer");

// Overwrites the entries of p0 named in `values`, each checked against its parameter's
// range and magnitude limit. InputError "<option>: "x" is not among <list>" for a name
// not in the space, "<option> <name>: ..." for a value out of range, and "<name> = v (the
// scene's value ...)" for an entry left at the scene's value outside the fit's transform
// domain (nu = -0.2 under the default logit on (0, 0.5)).
void applyStartValues(const std::map<std::string, double>& values, const ParameterSpace& space,
                      const TransformSet& transforms, const std::string& list, VecX& p0,
                      const std::string& option = "start");

}  // namespace softfit
