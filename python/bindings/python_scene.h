#pragma once
// A loaded and built scene as one Python object: its description, the built model, the
// current initial state and the current initial rigid motion. Parameter changes
// (setParameters) and initial states persist in it between calls.
#include <memory>
#include <string>
#include <vector>

#include "adjoint/parameter_space.h"
#include "scene/scene_builder.h"

namespace softfit::python {

class PythonScene {
 public:
  // From a scene file (relative paths against its folder).
  static std::unique_ptr<PythonScene> fromFile(const std::string& path);
  // From JSON text (a dict dumped by the Python side); `source` names it in messages,
  // relative paths resolve against baseDirectory.
  static std::unique_ptr<PythonScene> fromJson(const std::string& text, const std::string& source,
                                               const std::string& baseDirectory);

  const SceneDescription& description() const { return description_; }
  SceneDescription& description() { return description_; }
  BuiltScene& built() { return built_; }
  const BuiltScene& built() const { return built_; }
  PhysicalModel& model() { return *built_.model; }

  State& initial() { return initial_; }
  // The scene's trajectory with the current initial state (and description_.steps).
  TrajectorySetup trajectory();

  // Names as the CLI's --params ("E,nu,gravity", "E@1", ...), checked.
  ParameterSpace space(const std::vector<std::string>& names) const;
  VecX parameters(const std::vector<std::string>& names) const;
  // Sets the named values. Setting E reads nu back from the Lame parameters (and theta
  // phi from the normal), so the last bits depend on the values before; trial = true
  // first restores the model parameters of the last non-trial set (the base), which
  // makes the result independent of earlier trials (softfit.torch re-runs the forward
  // in its backward and needs the same bits).
  void setParameters(const std::vector<std::string>& names, const VecX& values, bool trial = false);
  // After a ParameterSpace changed the model (a fit): keeps its initial motion and makes
  // the model's parameters the base.
  void keepParameters(const ParameterSpace& space);

 private:
  explicit PythonScene(SceneDescription description);
  SceneDescription description_;
  BuiltScene built_;
  State initial_;
  ParameterValues base_;  // the model parameters trial sets start from
};

// "E,nu" or {"E", "nu"} -> "E,nu".
std::string joinNames(const std::vector<std::string>& names);

}  // namespace softfit::python
