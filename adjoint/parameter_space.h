#pragma once
// Named physical parameters as a flat vector: reads them from a model and an initial
// state, writes them back, and maps a TrajectoryGradient to d loss / d parameter by the
// chain rule. What each parameter does is its descriptor's (parameter_descriptor.h).
#include <string>
#include <vector>

#include "adjoint/parameter_descriptor.h"
#include "adjoint/trajectory_gradient.h"

namespace softfit {

// A parameter: a descriptor of the table (parameter_descriptor.h), for per-element
// kinds optionally restricted to one material region (heterogeneous fits): region 0 =
// elements in no scene material region, k = the k-th entry of the scene's
// material.regions; -1 = the whole body.
struct Parameter {
  const ParameterDescriptor* descriptor = nullptr;
  int region = -1;
};

// Names: those of the descriptor table (E, nu, density, alpha1, alpha2, gravity_x|y|z,
// ground_theta, ground_phi, ground_offset, velocity_x|y|z, angular_velocity_x|y|z);
// "E@k", "nu@k", "density@k" for material region k; the groups "gravity", "ground",
// "velocity" and "angular_velocity" expand to their components. A comma-separated list
// is accepted. InputError names `field` for unknown names.
std::vector<Parameter> parseParameterList(const std::string& list, const std::string& field = "params");
std::string parameterName(const Parameter& parameter);

class ParameterSpace {
 public:
  // `elementRegion` gives each element's material region (BuiltScene::elementRegion, see
  // Parameter); needed only for regional parameters. `motion` is the initial rigid
  // motion the velocity parameters change (BuiltScene::motion).
  ParameterSpace(std::vector<Parameter> parameters, InitialMotion motion, std::vector<int> elementRegion = {});

  const std::vector<Parameter>& parameters() const { return parameters_; }
  int size() const { return static_cast<int>(parameters_.size()); }
  std::vector<std::string> names() const;

  VecX values(const PhysicalModel& model) const;
  // Writes the values into the model and the initial state's velocity. Throws
  // InputError for values outside their domain (E <= 0, nu outside (-1, 0.5), ...).
  void apply(const VecX& values, PhysicalModel& model, State& initial);
  VecX gradient(const PhysicalModel& model, const TrajectoryGradient& g) const;
  // The initial rigid motion as the last apply() left it (for the next ParameterSpace).
  const InitialMotion& motion() const { return motion_; }

 private:
  // The elements a per-element parameter acts on.
  std::vector<int> elementsOf(const Parameter& parameter, int elementCount) const;
  std::vector<Parameter> parameters_;
  InitialMotion motion_;
  std::vector<int> elementRegion_;
};

}  // namespace softfit
