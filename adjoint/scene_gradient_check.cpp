#include "adjoint/scene_gradient_check.h"

#include "adjoint/motion_loss.h"
#include "adjoint/trajectory_gradient.h"

namespace softfit {

GradientCheckReport checkSceneGradient(const SceneDescription& description, BuiltScene& scene,
                                       const SceneGradientCheckOptions& options) {
  PhysicalModel& model = *scene.model;
  TrajectorySetup setup = trajectorySetup(description, scene);
  setup.integrator.newton.stepTolerance = std::min(setup.integrator.newton.stepTolerance, options.newtonTolerance);
  setup.integrator.pcgTolerance = std::min(setup.integrator.pcgTolerance, 1e-14);
  ParameterSpace space(options.parameters, scene.motion, scene.elementRegion);
  const VecX p0 = space.values(model);
  MassWeightedMotionLoss loss(model);

  space.apply(p0, model, setup.initial);
  const TrajectoryGradient g = trajectoryGradient(setup, loss, options.checkpoints);
  const VecX gradient = space.gradient(model, g);
  auto lossAt = [&](const VecX& p) {
    space.apply(p, model, setup.initial);
    return trajectoryLoss(setup, loss);
  };
  GradientCheckReport report = checkGradient(lossAt, p0, gradient, space.names(), options.check);
  space.apply(p0, model, setup.initial);
  return report;
}

}  // namespace softfit
