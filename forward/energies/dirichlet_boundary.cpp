#include "forward/energies/dirichlet_boundary.h"

#include <Eigen/Geometry>

namespace softfit {

DirichletBoundary::DirichletBoundary(std::vector<DirichletGroup> groups, const VecX& restPositions)
    : groups_(std::move(groups)), rest_(restPositions), fixed_(restPositions.size(), 0) {
  for (auto& g : groups_) {
    if (g.motion == DirichletGroup::Motion::Rotation) g.axis.normalize();
    for (int n : g.nodes)
      for (int k = 0; k < 3; ++k) fixed_[3 * n + k] = 1;
  }
}

int DirichletBoundary::constrainedNodeCount() const {
  int count = 0;
  for (size_t i = 0; i < fixed_.size(); i += 3) count += fixed_[i] ? 1 : 0;
  return count;
}

void DirichletBoundary::prescribe(double t, VecX* x, VecX* v) const {
  for (const auto& g : groups_) {
    const Mat3 R = g.motion == DirichletGroup::Motion::Rotation
                       ? Eigen::AngleAxisd(g.angularVelocity * t, g.axis).toRotationMatrix()
                       : Mat3::Identity();
    for (int n : g.nodes) {
      const Vec3 X = rest_.segment<3>(3 * n);
      Vec3 position = X, velocity = Vec3::Zero();
      switch (g.motion) {
        case DirichletGroup::Motion::Fixed: break;
        case DirichletGroup::Motion::Linear:
          position = X + g.velocity * t;
          velocity = g.velocity;
          break;
        case DirichletGroup::Motion::Rotation:
          position = g.center + R * (X - g.center);
          velocity = g.angularVelocity * g.axis.cross(R * (X - g.center));
          break;
      }
      if (x) x->segment<3>(3 * n) = position;
      if (v) v->segment<3>(3 * n) = velocity;
    }
  }
}

void DirichletBoundary::applyPositions(double t, VecX& x) const { prescribe(t, &x, nullptr); }

void DirichletBoundary::applyVelocities(double t, VecX& v) const { prescribe(t, nullptr, &v); }

}  // namespace softfit
