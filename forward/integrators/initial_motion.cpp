#include "forward/integrators/initial_motion.h"

namespace softfit {

Vec3 restCenterOfMass(const PhysicalModel& model) {
  Vec3 center = Vec3::Zero();
  for (int i = 0; i < model.nodeCount(); ++i) center += model.mass()[3 * i] * model.restPositions().segment<3>(3 * i);
  return center / model.totalMass();
}

void applyInitialMotion(const PhysicalModel& model, const InitialMotion& motion, VecX& v) {
  const DofMask fixed = model.fixedDofs();
  for (int i = 0; i < model.nodeCount(); ++i) {
    if (fixed[3 * i]) continue;
    const Vec3 r = model.restPositions().segment<3>(3 * i) - motion.center;
    v.segment<3>(3 * i) = motion.velocity + motion.angularVelocity.cross(r);
  }
}

void addInitialMotionAdjoint(const PhysicalModel& model, const InitialMotion& motion, const VecX& vBar,
                             Vec3& velocityBar, Vec3& angularBar) {
  const DofMask fixed = model.fixedDofs();
  for (int i = 0; i < model.nodeCount(); ++i) {
    if (fixed[3 * i]) continue;
    const Vec3 vb = vBar.segment<3>(3 * i);
    velocityBar += vb;
    angularBar += (model.restPositions().segment<3>(3 * i) - motion.center).cross(vb);
  }
}

}  // namespace softfit
