#pragma once
// Dirichlet (prescribed-position) nodes: fixed at rest, moving linearly, or rotating
// rigidly about an axis. Positions are prescribed as functions of time.
#include <vector>

#include "forward/solvers/dirichlet_elimination.h"
#include "forward/types.h"

namespace softfit {

struct DirichletGroup {
  enum class Motion { Fixed, Linear, Rotation };
  std::vector<int> nodes;
  Motion motion = Motion::Fixed;
  Vec3 velocity = Vec3::Zero();   // Linear: x(t) = X + velocity t
  Vec3 axis = Vec3::UnitZ();      // Rotation: unit axis through `center`
  Vec3 center = Vec3::Zero();
  double angularVelocity = 0.0;   // rad per time unit
};

class DirichletBoundary {
 public:
  DirichletBoundary() = default;
  DirichletBoundary(std::vector<DirichletGroup> groups, const VecX& restPositions);

  bool empty() const { return groups_.empty(); }
  const std::vector<DirichletGroup>& groups() const { return groups_; }
  const DofMask& fixedDofs() const { return fixed_; }
  int constrainedNodeCount() const;
  // Writes the prescribed positions / velocities at time t into x / v (other entries kept).
  void applyPositions(double t, VecX& x) const;
  void applyVelocities(double t, VecX& v) const;

 private:
  // Writes the prescribed positions into x and/or velocities into v (either may be null).
  void prescribe(double t, VecX* x, VecX* v) const;

  std::vector<DirichletGroup> groups_;
  VecX rest_;
  DofMask fixed_;
};

}  // namespace softfit
