#pragma once
// One descriptor per kind of physical parameter: its name, its default optimizer
// transform, how it is read from and written to the model (through ParameterValues, a
// working copy of every parameter), and its chain rule from the reverse pass'
// ModelGradient. ParameterSpace (parameter_space.h) and the optimizer transforms only
// walk this table: adding a parameter means adding one descriptor in
// parameter_descriptor.cpp.
#include <string>
#include <vector>

#include "adjoint/scalar_transform.h"
#include "forward/energies/model_gradient.h"
#include "forward/energies/physical_model.h"
#include "forward/integrators/initial_motion.h"
#include "forward/value_limits.h"

namespace softfit {

// Every physical parameter of a model and its initial motion, as one working copy:
// ParameterSpace reads it from the model, lets the descriptors change it, and writes
// what changed back in one go.
struct ParameterValues {
  std::vector<LameParameters> lame;  // per element
  VecX density;                      // per element
  RayleighDamping damping;
  Vec3 gravity = Vec3::Zero();
  bool hasGround = false;
  GroundPlane ground;                           // offset (and stiffness, sharpness) as in the model
  double groundTheta = 0.0, groundPhi = 0.0;    // normal (sin t cos p, sin t sin p, cos t)
  InitialMotion motion;
};

// What the chain rules read: dL/d(model parameters) and the values they were taken at.
struct ParameterGradientInputs {
  const ModelGradient& model;
  const ParameterValues& values;
  Vec3 velocityBar = Vec3::Zero();  // dL/dv0 and dL/dw of the initial motion
  Vec3 angularBar = Vec3::Zero();
};

// Which parts of the model a parameter changes (ParameterSpace writes only those back).
enum ParameterEffect : unsigned {
  kAffectsModel = 0,         // damping, gravity, ground offset: always written back
  kAffectsLame = 1u << 0,
  kAffectsDensity = 1u << 1,
  kAffectsGroundNormal = 1u << 2,
  kAffectsMotion = 1u << 3,
};

struct ParameterDescriptor {
  const char* name;   // CLI name, e.g. "E", "gravity_y"
  const char* group;  // group name that expands to all its members ("gravity"), or ""
  bool perElement;    // E, nu, density: get/set/chain act on one element; "name@k" = region k
  bool needsGround;   // InputError when the scene has no ground plane
  unsigned effects;   // ParameterEffect bits
  ParameterTransform transform;
  ValueRange range;   // the values a user may give it (forward/value_limits.h: shared with the scene reader)
  // The value (of `element` for per-element parameters; element is -1 otherwise).
  double (*get)(const ParameterValues& values, int element);
  // Sets the value; InputError naming `label` outside the parameter's domain.
  void (*set)(ParameterValues& values, int element, double value, const std::string& label);
  // dL/d(this parameter): one element's share for per-element parameters (summed over
  // the parameter's elements), the whole derivative otherwise.
  double (*chain)(const ParameterGradientInputs& inputs, int element);
};

// The table, in the order names are listed in messages.
const std::vector<ParameterDescriptor>& parameterDescriptors();
// InputError "NAME = VALUE: must lie in RANGE" unless value lies in the parameter's
// range. The one check of a parameter value that a user gives: the CLI's --start and
// --grid, Python's set_parameters (and the scene reader checks the same ranges).
void checkParameterValue(const ParameterDescriptor& descriptor, double value, const std::string& name);
// The descriptor name of a parameter name: "E@2" -> "E".
std::string parameterKind(const std::string& name);
// The SI unit of a parameter ("Pa" for E and E@k, "" for nu), for plot axes and tables.
std::string parameterUnit(const std::string& name);
// nullptr when there is no such name.
const ParameterDescriptor* findParameterDescriptor(const std::string& name);

// Reads the working copy from a model and an initial motion.
ParameterValues readParameterValues(const PhysicalModel& model, const InitialMotion& motion);
// Writes a copy read by readParameterValues back as it was (Lame parameters, density,
// damping, gravity, ground plane), bit for bit: restores a model after a trial run.
void restoreParameterValues(const ParameterValues& values, PhysicalModel& model);

}  // namespace softfit
