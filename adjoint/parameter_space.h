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

// A parameter; E, nu and density may be restricted to one material region
// (heterogeneous fits): region 0 = elements in no scene material region, k = the k-th
// entry of the scene's material.regions; -1 = the whole body.
struct Parameter {
  ParameterKind kind;
  int region = -1;
};

// Names: E, nu, density, alpha1, alpha2, gravity_x|y|z, ground_theta, ground_phi,
// ground_offset, velocity_x|y|z, angular_velocity_x|y|z; "E@k", "nu@k", "density@k"
// for material region k; the groups "gravity", "ground", "velocity" and
// "angular_velocity" expand to their components. A comma-separated list is accepted.
// InputError names `field` for unknown names.
std::vector<Parameter> parseParameterList(const std::string& list, const std::string& field = "--params");
std::string parameterName(ParameterKind kind);
std::string parameterName(const Parameter& parameter);

// Initial rigid velocity field v_i = v0 + w x (X_i - c) on the free (non-Dirichlet) nodes.
struct InitialMotion {
  Vec3 velocity = Vec3::Zero();
  Vec3 angularVelocity = Vec3::Zero();
  Vec3 center = Vec3::Zero();
};

class ParameterSpace {
 public:
  // `elementRegion` gives each element's material region (see Parameter); needed only
  // for regional parameters.
  ParameterSpace(std::vector<Parameter> parameters, InitialMotion motion, std::vector<int> elementRegion = {});
  ParameterSpace(const std::vector<ParameterKind>& kinds, InitialMotion motion);

  const std::vector<Parameter>& parameters() const { return parameters_; }
  int size() const { return static_cast<int>(parameters_.size()); }
  std::vector<std::string> names() const;

  VecX values(const PhysicalModel& model) const;
  // Writes the values into the model and the initial state's velocity. Throws
  // InputError for values outside their domain (E <= 0, nu outside (-1, 0.5), ...).
  void apply(const VecX& values, PhysicalModel& model, State& initial);
  VecX gradient(const PhysicalModel& model, const TrajectoryGradient& g) const;

 private:
  bool inRegion(int element, int region) const;
  std::vector<Parameter> parameters_;
  InitialMotion motion_;
  std::vector<int> elementRegion_;
};

}  // namespace softfit
