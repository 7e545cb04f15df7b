#include "adjoint/parameter_space.h"

#include <cmath>
#include <sstream>

#include "forward/errors.h"
#include "forward/mesh/text_tokenizer.h"

namespace softfit {

namespace {

struct NamedKind {
  const char* name;
  ParameterKind kind;
};
constexpr NamedKind kKinds[] = {
    {"E", ParameterKind::YoungsModulus},
    {"nu", ParameterKind::PoissonRatio},
    {"density", ParameterKind::Density},
    {"alpha1", ParameterKind::Alpha1},
    {"alpha2", ParameterKind::Alpha2},
    {"gravity_x", ParameterKind::GravityX},
    {"gravity_y", ParameterKind::GravityY},
    {"gravity_z", ParameterKind::GravityZ},
    {"ground_theta", ParameterKind::GroundTheta},
    {"ground_phi", ParameterKind::GroundPhi},
    {"ground_offset", ParameterKind::GroundOffset},
    {"velocity_x", ParameterKind::VelocityX},
    {"velocity_y", ParameterKind::VelocityY},
    {"velocity_z", ParameterKind::VelocityZ},
    {"angular_velocity_x", ParameterKind::AngularVelocityX},
    {"angular_velocity_y", ParameterKind::AngularVelocityY},
    {"angular_velocity_z", ParameterKind::AngularVelocityZ},
};

struct ElementMaterial {
  double youngs, poisson;
};

ElementMaterial youngsPoisson(const LameParameters& p) {
  return {p.mu * (3.0 * p.lambda + 2.0 * p.mu) / (p.lambda + p.mu), p.lambda / (2.0 * (p.lambda + p.mu))};
}

Vec3 normalFromAngles(double theta, double phi) {
  return Vec3(std::sin(theta) * std::cos(phi), std::sin(theta) * std::sin(phi), std::cos(theta));
}

int componentOf(ParameterKind k, ParameterKind first) { return static_cast<int>(k) - static_cast<int>(first); }

const GroundContact& requireGround(const PhysicalModel& model, ParameterKind kind) {
  if (!model.ground) throw InputError("parameter " + parameterName(kind) + " needs a ground plane in the scene");
  return *model.ground;
}

}  // namespace

std::string parameterName(ParameterKind kind) {
  for (const auto& k : kKinds)
    if (k.kind == kind) return k.name;
  return "unknown";
}

std::string parameterName(const Parameter& p) {
  return p.region < 0 ? parameterName(p.kind) : parameterName(p.kind) + "@" + std::to_string(p.region);
}

std::vector<Parameter> parseParameterList(const std::string& list, const std::string& field) {
  std::vector<Parameter> kinds;
  std::stringstream stream(list);
  std::string name;
  while (std::getline(stream, name, ',')) {
    if (name.empty()) continue;
    int region = -1;
    const auto at = name.find('@');
    if (at != std::string::npos) {
      const std::string base = name.substr(0, at), index = name.substr(at + 1);
      if ((base != "E" && base != "nu" && base != "density") || index.empty() ||
          index.find_first_not_of("0123456789") != std::string::npos)
        throw InputError(field + ": \"" + name + "\": regional parameters are E@k, nu@k or density@k with k >= 0");
      long long k = 0;
      if (!parseInteger(index, k) || k > 1000000)
        throw InputError(field + ": \"" + name + "\": region index out of range (at most 1000000)");
      region = static_cast<int>(k);
      name = base;
    }
    const std::vector<std::pair<std::string, std::vector<std::string>>> groups = {
        {"gravity", {"gravity_x", "gravity_y", "gravity_z"}},
        {"ground", {"ground_theta", "ground_phi", "ground_offset"}},
        {"velocity", {"velocity_x", "velocity_y", "velocity_z"}},
        {"angular_velocity", {"angular_velocity_x", "angular_velocity_y", "angular_velocity_z"}}};
    std::vector<std::string> expanded = {name};
    for (const auto& g : groups)
      if (g.first == name) expanded = g.second;
    for (const auto& e : expanded) {
      bool found = false;
      for (const auto& k : kKinds)
        if (e == k.name) {
          kinds.push_back({k.kind, region});
          found = true;
        }
      if (!found) {
        std::string valid;
        for (const auto& k : kKinds) valid += std::string(valid.empty() ? "" : ", ") + k.name;
        throw InputError(field + ": unknown parameter \"" + e + "\" (valid: " + valid +
                         "; groups: gravity, ground, velocity, angular_velocity)");
      }
    }
  }
  if (kinds.empty()) throw InputError(field + ": no parameter given");
  for (std::size_t i = 0; i < kinds.size(); ++i)
    for (std::size_t j = 0; j < i; ++j)
      if (kinds[i].kind == kinds[j].kind && kinds[i].region == kinds[j].region)
        throw InputError(field + ": parameter \"" + parameterName(kinds[i]) + "\" is given twice");
      else if (kinds[i].kind == kinds[j].kind && (kinds[i].region < 0 || kinds[j].region < 0))
        throw InputError(field + ": \"" + parameterName(kinds[j]) + "\" and \"" + parameterName(kinds[i]) +
                         "\" overlap (the body-wide value covers every region; give one or the other)");
  return kinds;
}

ParameterSpace::ParameterSpace(std::vector<Parameter> parameters, InitialMotion motion, std::vector<int> elementRegion)
    : parameters_(std::move(parameters)), motion_(motion), elementRegion_(std::move(elementRegion)) {
  for (const auto& p : parameters_)
    if (p.region >= 0 && elementRegion_.empty())
      throw InputError("parameter " + parameterName(p) + ": the scene's material regions are not known here");
}

ParameterSpace::ParameterSpace(const std::vector<ParameterKind>& kinds, InitialMotion motion) : motion_(motion) {
  for (auto k : kinds) parameters_.push_back({k, -1});
}

bool ParameterSpace::inRegion(int element, int region) const {
  return region < 0 || elementRegion_[element] == region;
}

std::vector<std::string> ParameterSpace::names() const {
  std::vector<std::string> out;
  for (const auto& p : parameters_) out.push_back(parameterName(p));
  return out;
}

VecX ParameterSpace::values(const PhysicalModel& model) const {
  VecX v(size());
  for (int i = 0; i < size(); ++i) {
    const ParameterKind k = parameters_[i].kind;
    // Regional (and body-wide) material values are read from the first element of the region.
    int first = 0;
    while (first < static_cast<int>(model.density().size()) && !inRegion(first, parameters_[i].region)) ++first;
    if (first == static_cast<int>(model.density().size()))
      throw InputError("parameter " + parameterName(parameters_[i]) + ": no element in that material region");
    const ElementMaterial material = youngsPoisson(model.elastic().parameters()[first]);
    switch (k) {
      case ParameterKind::YoungsModulus: v[i] = material.youngs; break;
      case ParameterKind::PoissonRatio: v[i] = material.poisson; break;
      case ParameterKind::Density: v[i] = model.density()[first]; break;
      case ParameterKind::Alpha1: v[i] = model.damping.alpha1; break;
      case ParameterKind::Alpha2: v[i] = model.damping.alpha2; break;
      case ParameterKind::GravityX:
      case ParameterKind::GravityY:
      case ParameterKind::GravityZ: v[i] = model.gravity[componentOf(k, ParameterKind::GravityX)]; break;
      case ParameterKind::GroundTheta: v[i] = std::acos(std::clamp(requireGround(model, k).plane().normal.z(), -1.0, 1.0)); break;
      case ParameterKind::GroundPhi: {
        const Vec3& n = requireGround(model, k).plane().normal;
        v[i] = std::atan2(n.y(), n.x());
        break;
      }
      case ParameterKind::GroundOffset: v[i] = requireGround(model, k).plane().offset; break;
      case ParameterKind::VelocityX:
      case ParameterKind::VelocityY:
      case ParameterKind::VelocityZ: v[i] = motion_.velocity[componentOf(k, ParameterKind::VelocityX)]; break;
      case ParameterKind::AngularVelocityX:
      case ParameterKind::AngularVelocityY:
      case ParameterKind::AngularVelocityZ:
        v[i] = motion_.angularVelocity[componentOf(k, ParameterKind::AngularVelocityX)];
        break;
    }
  }
  return v;
}

void ParameterSpace::apply(const VecX& values, PhysicalModel& model, State& initial) {
  if (values.size() != size()) throw std::invalid_argument("ParameterSpace::apply: wrong number of values");
  std::vector<LameParameters> lame = model.elastic().parameters();
  bool lameChanged = false, motionChanged = false;
  GroundPlane plane = model.ground ? model.ground->plane() : GroundPlane{};
  double theta = 0.0, phi = 0.0;
  bool angleChanged = false;
  if (model.ground) {
    theta = std::acos(std::clamp(plane.normal.z(), -1.0, 1.0));
    phi = std::atan2(plane.normal.y(), plane.normal.x());
  }
  VecX density = model.density();
  bool densityChanged = false;
  for (int i = 0; i < size(); ++i) {
    const ParameterKind k = parameters_[i].kind;
    const int region = parameters_[i].region;
    const double v = values[i];
    const std::string name = parameterName(parameters_[i]);
    if (!std::isfinite(v)) throw InputError("parameter " + name + " is not finite");
    switch (k) {
      case ParameterKind::YoungsModulus:
        for (size_t e = 0; e < lame.size(); ++e)
          if (inRegion(static_cast<int>(e), region))
            lame[e] = lameFromYoungPoisson(v, youngsPoisson(lame[e]).poisson, "parameter " + name);
        lameChanged = true;
        break;
      case ParameterKind::PoissonRatio:
        for (size_t e = 0; e < lame.size(); ++e)
          if (inRegion(static_cast<int>(e), region))
            lame[e] = lameFromYoungPoisson(youngsPoisson(lame[e]).youngs, v, "parameter " + name);
        lameChanged = true;
        break;
      case ParameterKind::Density:
        if (!(v > 0.0)) throw InputError("parameter " + name + " must be positive");
        for (int e = 0; e < density.size(); ++e)
          if (inRegion(e, region)) density[e] = v;
        densityChanged = true;
        break;
      case ParameterKind::Alpha1: model.damping.alpha1 = v; break;
      case ParameterKind::Alpha2: model.damping.alpha2 = v; break;
      case ParameterKind::GravityX:
      case ParameterKind::GravityY:
      case ParameterKind::GravityZ: model.gravity[componentOf(k, ParameterKind::GravityX)] = v; break;
      case ParameterKind::GroundTheta: requireGround(model, k); theta = v; angleChanged = true; break;
      case ParameterKind::GroundPhi: requireGround(model, k); phi = v; angleChanged = true; break;
      case ParameterKind::GroundOffset: requireGround(model, k); plane.offset = v; break;
      case ParameterKind::VelocityX:
      case ParameterKind::VelocityY:
      case ParameterKind::VelocityZ:
        motion_.velocity[componentOf(k, ParameterKind::VelocityX)] = v;
        motionChanged = true;
        break;
      case ParameterKind::AngularVelocityX:
      case ParameterKind::AngularVelocityY:
      case ParameterKind::AngularVelocityZ:
        motion_.angularVelocity[componentOf(k, ParameterKind::AngularVelocityX)] = v;
        motionChanged = true;
        break;
    }
  }
  if (lameChanged) model.elastic().setParameters(lame);
  if (densityChanged) model.setDensity(density);
  if (model.ground) {
    if (angleChanged) plane.normal = normalFromAngles(theta, phi);
    model.ground->setPlane(plane);
  }
  if (motionChanged) {
    const DofMask fixed = model.fixedDofs();
    for (int i = 0; i < model.nodeCount(); ++i) {
      if (fixed[3 * i]) continue;
      const Vec3 r = model.restPositions().segment<3>(3 * i) - motion_.center;
      initial.v.segment<3>(3 * i) = motion_.velocity + motion_.angularVelocity.cross(r);
    }
  }
}

VecX ParameterSpace::gradient(const PhysicalModel& model, const TrajectoryGradient& g) const {
  VecX out = VecX::Zero(size());
  const auto& lame = model.elastic().parameters();
  const DofMask fixed = model.fixedDofs();
  Vec3 velocityBar = Vec3::Zero(), angularBar = Vec3::Zero();
  for (int i = 0; i < model.nodeCount(); ++i) {
    if (fixed[3 * i]) continue;
    const Vec3 vb = g.initialV.segment<3>(3 * i);
    velocityBar += vb;
    angularBar += (model.restPositions().segment<3>(3 * i) - motion_.center).cross(vb);
  }
  for (int i = 0; i < size(); ++i) {
    const ParameterKind k = parameters_[i].kind;
    const int region = parameters_[i].region;
    switch (k) {
      case ParameterKind::YoungsModulus:
      case ParameterKind::PoissonRatio:
        for (size_t e = 0; e < lame.size(); ++e) {
          if (!inRegion(static_cast<int>(e), region)) continue;
          const ElementMaterial m = youngsPoisson(lame[e]);
          const double E = m.youngs, nu = m.poisson, d = (1.0 + nu) * (1.0 - 2.0 * nu);
          if (k == ParameterKind::YoungsModulus)
            out[i] += g.parameters.mu[e] / (2.0 * (1.0 + nu)) + g.parameters.lambda[e] * nu / d;
          else
            out[i] += -g.parameters.mu[e] * E / (2.0 * (1.0 + nu) * (1.0 + nu)) +
                      g.parameters.lambda[e] * E * (1.0 + 2.0 * nu * nu) / (d * d);
        }
        break;
      case ParameterKind::Density:
        for (int e = 0; e < g.parameters.density.size(); ++e)
          if (inRegion(e, region)) out[i] += g.parameters.density[e];
        break;
      case ParameterKind::Alpha1: out[i] = g.parameters.alpha1; break;
      case ParameterKind::Alpha2: out[i] = g.parameters.alpha2; break;
      case ParameterKind::GravityX:
      case ParameterKind::GravityY:
      case ParameterKind::GravityZ: out[i] = g.parameters.gravity[componentOf(k, ParameterKind::GravityX)]; break;
      case ParameterKind::GroundTheta:
      case ParameterKind::GroundPhi: {
        const Vec3& n = requireGround(model, k).plane().normal;
        const double theta = std::acos(std::clamp(n.z(), -1.0, 1.0)), phi = std::atan2(n.y(), n.x());
        const Vec3 dn = k == ParameterKind::GroundTheta
                            ? Vec3(std::cos(theta) * std::cos(phi), std::cos(theta) * std::sin(phi), -std::sin(theta))
                            : Vec3(-std::sin(theta) * std::sin(phi), std::sin(theta) * std::cos(phi), 0.0);
        out[i] = g.parameters.groundNormal.dot(dn);
        break;
      }
      case ParameterKind::GroundOffset: out[i] = g.parameters.groundOffset; break;
      case ParameterKind::VelocityX:
      case ParameterKind::VelocityY:
      case ParameterKind::VelocityZ: out[i] = velocityBar[componentOf(k, ParameterKind::VelocityX)]; break;
      case ParameterKind::AngularVelocityX:
      case ParameterKind::AngularVelocityY:
      case ParameterKind::AngularVelocityZ:
        out[i] = angularBar[componentOf(k, ParameterKind::AngularVelocityX)];
        break;
    }
  }
  return out;
}

}  // namespace softfit
