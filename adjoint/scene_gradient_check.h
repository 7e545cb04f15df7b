#pragma once
// Gradient check of a whole scene: the adjoint gradient of MassWeightedMotionLoss over
// the scene's trajectory w.r.t. the named parameters, against finite differences.
#include <string>

#include "adjoint/checkpointing.h"
#include "adjoint/gradient_check.h"
#include "adjoint/parameter_space.h"
#include "scene/scene_builder.h"

namespace softfit {

struct SceneGradientCheckOptions {
  std::vector<Parameter> parameters;
  GradientCheckOptions check;
  CheckpointOptions checkpoints;
  // Newton step tolerance (relative to the body size) for these runs: finite
  // differences need tightly converged solves.
  double newtonTolerance = 1e-13;
};

GradientCheckReport checkSceneGradient(const SceneDescription& description, BuiltScene& scene,
                                       const SceneGradientCheckOptions& options);

}  // namespace softfit
