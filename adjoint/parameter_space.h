#pragma once
// Named physical parameters as a flat vector: reads them from a model and an initial
// state, writes them back, and maps a TrajectoryGradient to d loss / d parameter by the
// chain rule (E, nu -> Lame; ground normal chart; initial linear/angular velocity).
#include <string>
#include <vector>

#include "adjoint/trajectory_gradient.h"

namespace softfit {

enum class ParameterKind {
  YoungsModulus,  // body-wide E (each element keeps its Poisson ratio)
  PoissonRatio,   // body-wide nu (each element keeps its E)
  Density,        // body-wide density
  Alpha1,
  Alpha2,
  GravityX, GravityY, GravityZ,
  GroundTheta,    // normal n = (sin t cos p, sin t sin p, cos t)
  GroundPhi,
  GroundOffset,
  VelocityX, VelocityY, VelocityZ,                       // initial linear velocity
  AngularVelocityX, AngularVelocityY, AngularVelocityZ,  // initial angular velocity
};

// Names: E, nu, density, alpha1, alpha2, gravity_x|y|z, ground_theta, ground_phi,
// ground_offset, velocity_x|y|z, angular_velocity_x|y|z; the groups "gravity",
// "ground", "velocity" and "angular_velocity" expand to their components. A
// comma-separated list is accepted. InputError names `field` for unknown names.
std::vector<ParameterKind> parseParameterList(const std::string& list, const std::string& field = "--params");
std::string parameterName(ParameterKind kind);

// Initial rigid velocity field v_i = v0 + w x (X_i - c) on the free (non-Dirichlet) nodes.
struct InitialMotion {
  Vec3 velocity = Vec3::Zero();
  Vec3 angularVelocity = Vec3::Zero();
  Vec3 center = Vec3::Zero();
};

class ParameterSpace {
 public:
  ParameterSpace(std::vector<ParameterKind> kinds, InitialMotion motion);

  const std::vector<ParameterKind>& kinds() const { return kinds_; }
  int size() const { return static_cast<int>(kinds_.size()); }
  std::vector<std::string> names() const;

  VecX values(const PhysicalModel& model) const;
  // Writes the values into the model and the initial state's velocity. Throws
  // InputError for values outside their domain (E <= 0, nu outside (-1, 0.5), ...).
  void apply(const VecX& values, PhysicalModel& model, State& initial);
  VecX gradient(const PhysicalModel& model, const TrajectoryGradient& g) const;

 private:
  std::vector<ParameterKind> kinds_;
  InitialMotion motion_;
};

}  // namespace softfit
