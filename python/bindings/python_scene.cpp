#include "python/bindings/python_scene.h"

#include <nlohmann/json.hpp>

#include "forward/errors.h"
#include "forward/value_limits.h"
#include "scene/scene_loader.h"

namespace softfit::python {

PythonScene::PythonScene(SceneDescription description)
    : description_(std::move(description)),
      built_(buildScene(description_)),
      initial_(built_.initial),
      base_(readParameterValues(*built_.model, built_.motion)) {}

std::unique_ptr<PythonScene> PythonScene::fromFile(const std::string& path) {
  return std::unique_ptr<PythonScene>(new PythonScene(loadScene(path)));
}

std::unique_ptr<PythonScene> PythonScene::fromJson(const std::string& text, const std::string& source,
                                                   const std::string& baseDirectory) {
  nlohmann::json document;
  try {
    document = nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& e) {
    throw InputError(source + ": not valid JSON: " + e.what());
  }
  return std::unique_ptr<PythonScene>(new PythonScene(parseScene(document, source, baseDirectory)));
}

TrajectorySetup PythonScene::trajectory() {
  TrajectorySetup setup = trajectorySetup(description_, built_);
  setup.initial = initial_;
  return setup;
}

std::string joinNames(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ",") + n;
  return out;
}

ParameterSpace PythonScene::space(const std::vector<std::string>& names) const {
  return ParameterSpace(parseParameterList(joinNames(names), "params"), built_.motion, built_.elementRegion);
}

VecX PythonScene::parameters(const std::vector<std::string>& names) const { return space(names).values(*built_.model); }

void PythonScene::setParameters(const std::vector<std::string>& names, const VecX& values, bool trial) {
  ParameterSpace s = space(names);
  if (values.size() != s.size())
    throw InputError("params: " + std::to_string(values.size()) + " values for " + std::to_string(s.size()) +
                     " parameters (" + joinNames(s.names()) + ")");
  for (int i = 0; i < s.size(); ++i)  // the ranges the CLI applies to --start values
    checkParameterValue(*s.parameters()[i].descriptor, values[i], "parameter " + parameterName(s.parameters()[i]));
  if (trial) restoreParameterValues(base_, *built_.model);
  s.apply(values, *built_.model, initial_);
  built_.motion = s.motion();
  if (!trial) base_ = readParameterValues(*built_.model, built_.motion);
}

void PythonScene::keepParameters(const ParameterSpace& space) {
  built_.motion = space.motion();
  base_ = readParameterValues(*built_.model, built_.motion);
}

}  // namespace softfit::python
