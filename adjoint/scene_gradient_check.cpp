#include "adjoint/scene_gradient_check.h"

#include "adjoint/motion_loss.h"
#include "adjoint/trajectory_gradient.h"

namespace softfit {

GradientCheckReport checkSceneGradient(const SceneDescription& description, BuiltScene& scene,
                                       const SceneGradientCheckOptions& options) {
  PhysicalModel& model = *scene.model;
  IntegratorSettings settings = description.integrator;
  settings.newton.stepTolerance = std::min(settings.newton.stepTolerance, options.newtonTolerance);
  settings.pcgTolerance = std::min(settings.pcgTolerance, 1e-14);
  ParameterSpace space(options.parameters, scene.motion, scene.elementRegion);
  const VecX p0 = space.values(model);
  State initial = scene.initial;
  MassWeightedMotionLoss loss(model);

  space.apply(p0, model, initial);
  const TrajectoryGradient g =
      trajectoryGradient(model, settings, description.dt, initial, description.steps, loss, options.checkpoints);
  const VecX gradient = space.gradient(model, g);
  auto lossAt = [&](const VecX& p) {
    space.apply(p, model, initial);
    return trajectoryLoss(model, settings, description.dt, initial, description.steps, loss);
  };
  GradientCheckReport report = checkGradient(lossAt, p0, gradient, space.names(), options.check);
  space.apply(p0, model, initial);
  return report;
}

}  // namespace softfit
