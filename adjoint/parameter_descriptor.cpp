#include "adjoint/parameter_descriptor.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "forward/errors.h"
#include "forward/value_limits.h"

namespace softfit {

namespace {

using Transform = ParameterTransform;
constexpr Transform kIdentity{Transform::Kind::Identity};
constexpr Transform kLog{Transform::Kind::Log};
constexpr Transform kPoissonLogit{Transform::Kind::Logit, 0.0, 0.5};

// ---- Material (per element): E, nu through the Lame parameters, density. ----
double getYoungs(const ParameterValues& v, int e) { return youngPoissonFromLame(v.lame[e]).youngs; }
double getPoisson(const ParameterValues& v, int e) { return youngPoissonFromLame(v.lame[e]).poisson; }
double getDensity(const ParameterValues& v, int e) { return v.density[e]; }
void setYoungs(ParameterValues& v, int e, double x, const std::string& label) {
  v.lame[e] = lameFromYoungPoisson(x, youngPoissonFromLame(v.lame[e]).poisson, label);
}
void setPoisson(ParameterValues& v, int e, double x, const std::string& label) {
  v.lame[e] = lameFromYoungPoisson(youngPoissonFromLame(v.lame[e]).youngs, x, label);
}
void setDensity(ParameterValues& v, int e, double x, const std::string& label) {
  if (!(x > 0.0)) throw InputError(label + " must be positive");
  v.density[e] = x;
}
double chainYoungs(const ParameterGradientInputs& in, int e) {
  return youngPoissonGradient(in.values.lame[e], in.model.mu[e], in.model.lambda[e]).youngs;
}
double chainPoisson(const ParameterGradientInputs& in, int e) {
  return youngPoissonGradient(in.values.lame[e], in.model.mu[e], in.model.lambda[e]).poisson;
}
double chainDensity(const ParameterGradientInputs& in, int e) { return in.model.density[e]; }

// ---- Rayleigh damping. ----
double getAlpha1(const ParameterValues& v, int) { return v.damping.alpha1; }
double getAlpha2(const ParameterValues& v, int) { return v.damping.alpha2; }
void setAlpha1(ParameterValues& v, int, double x, const std::string&) { v.damping.alpha1 = x; }
void setAlpha2(ParameterValues& v, int, double x, const std::string&) { v.damping.alpha2 = x; }
double chainAlpha1(const ParameterGradientInputs& in, int) { return in.model.alpha1; }
double chainAlpha2(const ParameterGradientInputs& in, int) { return in.model.alpha2; }

// ---- Vector parameters, one descriptor per component. ----
template <int C>
double getGravity(const ParameterValues& v, int) { return v.gravity[C]; }
template <int C>
void setGravity(ParameterValues& v, int, double x, const std::string&) { v.gravity[C] = x; }
template <int C>
double chainGravity(const ParameterGradientInputs& in, int) { return in.model.gravity[C]; }

template <int C>
double getVelocity(const ParameterValues& v, int) { return v.motion.velocity[C]; }
template <int C>
void setVelocity(ParameterValues& v, int, double x, const std::string&) { v.motion.velocity[C] = x; }
template <int C>
double chainVelocity(const ParameterGradientInputs& in, int) { return in.velocityBar[C]; }

template <int C>
double getAngular(const ParameterValues& v, int) { return v.motion.angularVelocity[C]; }
template <int C>
void setAngular(ParameterValues& v, int, double x, const std::string&) { v.motion.angularVelocity[C] = x; }
template <int C>
double chainAngular(const ParameterGradientInputs& in, int) { return in.angularBar[C]; }

// ---- Ground plane: normal in spherical angles, offset. ----
double getTheta(const ParameterValues& v, int) { return v.groundTheta; }
double getPhi(const ParameterValues& v, int) { return v.groundPhi; }
double getOffset(const ParameterValues& v, int) { return v.ground.offset; }
void setTheta(ParameterValues& v, int, double x, const std::string&) { v.groundTheta = x; }
void setPhi(ParameterValues& v, int, double x, const std::string&) { v.groundPhi = x; }
void setOffset(ParameterValues& v, int, double x, const std::string&) { v.ground.offset = x; }
// dn/dtheta and dn/dphi at the current normal.
double chainTheta(const ParameterGradientInputs& in, int) {
  const double theta = in.values.groundTheta, phi = in.values.groundPhi;
  const Vec3 dn(std::cos(theta) * std::cos(phi), std::cos(theta) * std::sin(phi), -std::sin(theta));
  return in.model.groundNormal.dot(dn);
}
double chainPhi(const ParameterGradientInputs& in, int) {
  const double theta = in.values.groundTheta, phi = in.values.groundPhi;
  const Vec3 dn(-std::sin(theta) * std::sin(phi), std::sin(theta) * std::cos(phi), 0.0);
  return in.model.groundNormal.dot(dn);
}
double chainOffset(const ParameterGradientInputs& in, int) { return in.model.groundOffset; }

const std::vector<ParameterDescriptor> kDescriptors = {
    {"E", "", true, false, kAffectsLame, kLog, kYoungsModulusRange, getYoungs, setYoungs, chainYoungs},
    {"nu", "", true, false, kAffectsLame, kPoissonLogit, kPoissonRatioRange, getPoisson, setPoisson, chainPoisson},
    {"density", "", true, false, kAffectsDensity, kLog, kDensityRange, getDensity, setDensity, chainDensity},
    {"alpha1", "", false, false, kAffectsModel, kLog, kDampingRange, getAlpha1, setAlpha1, chainAlpha1},
    {"alpha2", "", false, false, kAffectsModel, kLog, kDampingRange, getAlpha2, setAlpha2, chainAlpha2},
    {"gravity_x", "gravity", false, false, kAffectsModel, kIdentity, kGravityRange, getGravity<0>, setGravity<0>, chainGravity<0>},
    {"gravity_y", "gravity", false, false, kAffectsModel, kIdentity, kGravityRange, getGravity<1>, setGravity<1>, chainGravity<1>},
    {"gravity_z", "gravity", false, false, kAffectsModel, kIdentity, kGravityRange, getGravity<2>, setGravity<2>, chainGravity<2>},
    {"ground_theta", "ground", false, true, kAffectsGroundNormal, kIdentity, kAngleRange, getTheta, setTheta, chainTheta},
    {"ground_phi", "ground", false, true, kAffectsGroundNormal, kIdentity, kAngleRange, getPhi, setPhi, chainPhi},
    {"ground_offset", "ground", false, true, kAffectsModel, kIdentity, kCoordinateRange, getOffset, setOffset, chainOffset},
    {"velocity_x", "velocity", false, false, kAffectsMotion, kIdentity, kSpeedRange, getVelocity<0>, setVelocity<0>,
     chainVelocity<0>},
    {"velocity_y", "velocity", false, false, kAffectsMotion, kIdentity, kSpeedRange, getVelocity<1>, setVelocity<1>,
     chainVelocity<1>},
    {"velocity_z", "velocity", false, false, kAffectsMotion, kIdentity, kSpeedRange, getVelocity<2>, setVelocity<2>,
     chainVelocity<2>},
    {"angular_velocity_x", "angular_velocity", false, false, kAffectsMotion, kIdentity, kAngularSpeedRange, getAngular<0>, setAngular<0>,
     chainAngular<0>},
    {"angular_velocity_y", "angular_velocity", false, false, kAffectsMotion, kIdentity, kAngularSpeedRange, getAngular<1>, setAngular<1>,
     chainAngular<1>},
    {"angular_velocity_z", "angular_velocity", false, false, kAffectsMotion, kIdentity, kAngularSpeedRange, getAngular<2>, setAngular<2>,
     chainAngular<2>},
};

}  // namespace

const std::vector<ParameterDescriptor>& parameterDescriptors() { return kDescriptors; }

std::string parameterKind(const std::string& name) { return name.substr(0, name.find('@')); }

std::string parameterUnit(const std::string& name) {
  const std::string kind = parameterKind(name);
  if (kind == "E") return "Pa";
  if (kind == "density") return "kg/m^3";
  if (kind == "alpha1") return "1/s";
  if (kind == "alpha2") return "s";
  if (kind.rfind("gravity", 0) == 0) return "m/s^2";
  if (kind.rfind("angular_velocity", 0) == 0) return "rad/s";
  if (kind.rfind("velocity", 0) == 0) return "m/s";
  if (kind == "ground_theta" || kind == "ground_phi") return "rad";
  if (kind == "ground_offset") return "m";
  return "";
}

void checkParameterValue(const ParameterDescriptor& descriptor, double value, const std::string& name) {
  requireInRange(value, descriptor.range, name);
}

const ParameterDescriptor* findParameterDescriptor(const std::string& name) {
  for (const auto& d : kDescriptors)
    if (name == d.name) return &d;
  return nullptr;
}

ParameterValues readParameterValues(const PhysicalModel& model, const InitialMotion& motion) {
  ParameterValues v;
  v.lame = model.elastic().parameters();
  v.density = model.density();
  v.damping = model.damping;
  v.gravity = model.gravity;
  v.motion = motion;
  if (model.ground) {
    v.hasGround = true;
    v.ground = model.ground->plane();
    v.groundTheta = std::acos(std::clamp(v.ground.normal.z(), -1.0, 1.0));
    v.groundPhi = std::atan2(v.ground.normal.y(), v.ground.normal.x());
  }
  return v;
}

namespace {

bool sameBits(double a, double b) { return std::memcmp(&a, &b, sizeof(double)) == 0; }

bool sameLame(const std::vector<LameParameters>& a, const std::vector<LameParameters>& b) {
  if (a.size() != b.size()) return false;
  for (size_t e = 0; e < a.size(); ++e)
    if (!sameBits(a[e].mu, b[e].mu) || !sameBits(a[e].lambda, b[e].lambda)) return false;
  return true;
}

bool sameDensity(const VecX& a, const VecX& b) {
  if (a.size() != b.size()) return false;
  for (Eigen::Index e = 0; e < a.size(); ++e)
    if (!sameBits(a[e], b[e])) return false;
  return true;
}

}  // namespace

void restoreParameterValues(const ParameterValues& values, PhysicalModel& model) {
  // Unchanged Lame parameters and densities are not written again: what they derive
  // (rest element stiffness, lumped mass) would be the same bits, at the cost of a pass
  // over the elements.
  if (!sameLame(model.elastic().parameters(), values.lame)) model.elastic().setParameters(values.lame);
  if (!sameDensity(model.density(), values.density)) model.setDensity(values.density);
  model.damping = values.damping;
  model.gravity = values.gravity;
  if (model.ground && values.hasGround) model.ground->setPlane(values.ground);
}

}  // namespace softfit
