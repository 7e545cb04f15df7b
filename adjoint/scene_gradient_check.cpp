#include "adjoint/scene_gradient_check.h"

#include "adjoint/material_regions.h"
#include "adjoint/motion_loss.h"
#include "adjoint/trajectory_gradient.h"

namespace softfit {

Vec3 initialRotationCenter(const SceneDescription& description, const PhysicalModel& model) {
  if (description.initial.center) return *description.initial.center;
  Vec3 center = Vec3::Zero();
  for (int i = 0; i < model.nodeCount(); ++i) center += model.mass()[3 * i] * model.restPositions().segment<3>(3 * i);
  return center / model.totalMass();
}

InitialMotion initialMotion(const SceneDescription& description, const PhysicalModel& model) {
  return {description.initial.velocity, description.initial.angularVelocity, initialRotationCenter(description, model)};
}

GradientCheckReport checkSceneGradient(const SceneDescription& description, BuiltScene& scene,
                                       const SceneGradientCheckOptions& options) {
  PhysicalModel& model = *scene.model;
  IntegratorSettings settings = description.integrator;
  settings.newton.stepTolerance = std::min(settings.newton.stepTolerance, options.newtonTolerance);
  settings.pcgTolerance = std::min(settings.pcgTolerance, 1e-14);
  const InitialMotion motion = initialMotion(description, model);
  ParameterSpace space(options.parameters, motion, materialRegionOfElements(description.material, model));
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
