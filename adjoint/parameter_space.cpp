#include "adjoint/parameter_space.h"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "forward/errors.h"

namespace softfit {

namespace {

Vec3 normalFromAngles(double theta, double phi) {
  return Vec3(std::sin(theta) * std::cos(phi), std::sin(theta) * std::sin(phi), std::cos(theta));
}

void requireGround(const ParameterValues& values, const Parameter& p) {
  if (p.descriptor->needsGround && !values.hasGround)
    throw InputError("parameter " + std::string(p.descriptor->name) + " needs a ground plane in the scene");
}

// "E@k, nu@k or density@k": the per-element names of the table.
std::string regionalNames() {
  std::vector<std::string> names;
  for (const auto& d : parameterDescriptors())
    if (d.perElement) names.push_back(std::string(d.name) + "@k");
  std::string out;
  for (size_t i = 0; i < names.size(); ++i)
    out += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + names[i];
  return out;
}

std::string validNames() {
  std::string names, groups;
  for (const auto& d : parameterDescriptors()) {
    names += std::string(names.empty() ? "" : ", ") + d.name;
    const std::string group = d.group;
    if (!group.empty() && (", " + groups + ",").find(", " + group + ",") == std::string::npos)
      groups += std::string(groups.empty() ? "" : ", ") + group;
  }
  return "valid: " + names + "; groups: " + groups;
}

// Two parameters that write the same value: the same descriptor on the same region, or
// body-wide and regional together (their joint perturbation is not what the gradient
// describes).
bool overlap(const Parameter& a, const Parameter& b) {
  return a.descriptor == b.descriptor && (a.region == b.region || a.region < 0 || b.region < 0);
}

}  // namespace

std::string parameterName(const Parameter& p) {
  const std::string base = p.descriptor ? p.descriptor->name : "unknown";
  return p.region < 0 ? base : base + "@" + std::to_string(p.region);
}

std::vector<Parameter> parseParameterList(const std::string& list, const std::string& field) {
  std::vector<Parameter> parameters;
  std::stringstream stream(list);
  std::string name;
  while (std::getline(stream, name, ',')) {
    if (name.empty()) continue;
    int region = -1;
    const auto at = name.find('@');
    if (at != std::string::npos) {
      const std::string base = name.substr(0, at), index = name.substr(at + 1);
      const ParameterDescriptor* d = findParameterDescriptor(base);
      if (!d || !d->perElement || index.empty() || index.size() > 9 ||
          index.find_first_not_of("0123456789") != std::string::npos)
        throw InputError(field + ": \"" + name + "\": regional parameters are " + regionalNames() +
                         " with 0 <= k < 1e9");
      region = std::stoi(index);
      name = base;
    }
    std::vector<const ParameterDescriptor*> expanded;
    for (const auto& d : parameterDescriptors())
      if (name == d.group) expanded.push_back(&d);
    if (expanded.empty()) {
      const ParameterDescriptor* d = findParameterDescriptor(name);
      if (!d) throw InputError(field + ": unknown parameter \"" + name + "\" (" + validNames() + ")");
      expanded.push_back(d);
    }
    for (const ParameterDescriptor* d : expanded) {
      const Parameter p{d, region};
      for (const Parameter& q : parameters) {
        if (p.descriptor == q.descriptor && p.region == q.region)
          throw InputError(field + ": parameter \"" + parameterName(p) + "\" is given twice");
        if (overlap(p, q))
          throw InputError(field + ": \"" + parameterName(p) + "\" overlaps \"" + parameterName(q) +
                           "\" (each value may be named once: body-wide or per region)");
      }
      parameters.push_back(p);
    }
  }
  if (parameters.empty()) throw InputError(field + ": no parameter given");
  return parameters;
}

ParameterSpace::ParameterSpace(std::vector<Parameter> parameters, InitialMotion motion, std::vector<int> elementRegion)
    : parameters_(std::move(parameters)), motion_(motion), elementRegion_(std::move(elementRegion)) {
  for (const auto& p : parameters_) {
    if (!p.descriptor) throw std::invalid_argument("ParameterSpace: a parameter without a descriptor");
    if (p.region >= 0 && elementRegion_.empty())
      throw InputError("parameter " + parameterName(p) + ": the scene's material regions are not known here");
    // Refused here, so that every front end (fit, sweep, gradcheck, Python) refuses it.
    if (p.region >= 0 && std::find(elementRegion_.begin(), elementRegion_.end(), p.region) == elementRegion_.end()) {
      const int last = *std::max_element(elementRegion_.begin(), elementRegion_.end());
      throw InputError("parameter " + parameterName(p) + ": no element in material region " + std::to_string(p.region) +
                       " (the scene's elements lie in regions 0.." + std::to_string(last) +
                       "; region k is material.regions[k-1], 0 the rest)");
    }
  }
}

std::vector<int> ParameterSpace::elementsOf(const Parameter& p, int elementCount) const {
  std::vector<int> elements;
  for (int e = 0; e < elementCount; ++e)
    if (p.region < 0 || elementRegion_[e] == p.region) elements.push_back(e);
  return elements;
}

std::vector<std::string> ParameterSpace::names() const {
  std::vector<std::string> out;
  for (const auto& p : parameters_) out.push_back(parameterName(p));
  return out;
}

VecX ParameterSpace::values(const PhysicalModel& model) const {
  const ParameterValues values = readParameterValues(model, motion_);
  const int elementCount = static_cast<int>(model.density().size());
  VecX v(size());
  for (int i = 0; i < size(); ++i) {
    const Parameter& p = parameters_[i];
    requireGround(values, p);
    int element = -1;
    if (p.descriptor->perElement) {  // read from the first element of the region
      const std::vector<int> elements = elementsOf(p, elementCount);
      if (elements.empty())
        throw InputError("parameter " + parameterName(p) + ": no element in that material region");
      element = elements.front();
    }
    v[i] = p.descriptor->get(values, element);
  }
  return v;
}

void ParameterSpace::apply(const VecX& x, PhysicalModel& model, State& initial) {
  if (x.size() != size()) throw std::invalid_argument("ParameterSpace::apply: wrong number of values");
  ParameterValues values = readParameterValues(model, motion_);
  const int elementCount = static_cast<int>(model.density().size());
  unsigned effects = 0;
  for (int i = 0; i < size(); ++i) {
    const Parameter& p = parameters_[i];
    const std::string label = "parameter " + parameterName(p);
    if (!std::isfinite(x[i])) throw InputError(label + " is not finite");
    requireGround(values, p);
    if (p.descriptor->perElement) {
      for (int e : elementsOf(p, elementCount)) p.descriptor->set(values, e, x[i], label);
    } else {
      p.descriptor->set(values, -1, x[i], label);
    }
    effects |= p.descriptor->effects;
  }
  if (effects & kAffectsLame) model.elastic().setParameters(values.lame);
  if (effects & kAffectsDensity) model.setDensity(values.density);
  model.damping = values.damping;
  model.gravity = values.gravity;
  if (model.ground) {
    GroundPlane plane = values.ground;
    if (effects & kAffectsGroundNormal) plane.normal = normalFromAngles(values.groundTheta, values.groundPhi);
    model.ground->setPlane(plane);
  }
  motion_ = values.motion;
  if (effects & kAffectsMotion) applyInitialMotion(model, motion_, initial.v);
}

VecX ParameterSpace::gradient(const PhysicalModel& model, const TrajectoryGradient& g) const {
  const ParameterValues values = readParameterValues(model, motion_);
  ParameterGradientInputs inputs{g.parameters, values};
  addInitialMotionAdjoint(model, motion_, g.initialV, inputs.velocityBar, inputs.angularBar);
  const int elementCount = static_cast<int>(model.density().size());
  VecX out = VecX::Zero(size());
  for (int i = 0; i < size(); ++i) {
    const Parameter& p = parameters_[i];
    requireGround(values, p);
    if (p.descriptor->perElement) {
      for (int e : elementsOf(p, elementCount)) out[i] += p.descriptor->chain(inputs, e);
    } else {
      out[i] = p.descriptor->chain(inputs, -1);
    }
  }
  return out;
}

}  // namespace softfit
