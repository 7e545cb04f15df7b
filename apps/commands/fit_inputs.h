#pragma once
// What `softfit fit` and `softfit sweep` share: their input options, the scene and the
// observations with their cost (chosen by optim/fit_loss.h), the fit setup. Both
// commands evaluate the very same cost through this one path.
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "optim/fit_problem.h"
#include "optim/fit_setup.h"
#include "scene/scene_builder.h"
#include "scene/scene_description.h"

namespace softfit::apps {

struct FitInputOptions {
  std::string command = "fit";  // for the log line ("softfit fit: ...")
  std::string device = "cpu";
  std::string scene;
  std::string observations;
  FitLossOptions loss;          // --loss, --point-cost, --huber, --noise-sigma (fit: --bootstrap-steps)
  std::string checkpointing = "all";
  int maxStates = 20;
};

// The scene argument and --observations, --device, --loss, --point-cost, --huber,
// --noise-sigma, --checkpointing and --max-states, for both commands.
void addFitInputOptions(CLI::App* cmd, FitInputOptions& options);

// The loaded inputs. Filled in place by loadFitInputs (the loss refers to the scene), so
// neither copied nor moved.
struct FitInputs {
  FitInputs() = default;
  FitInputs(const FitInputs&) = delete;
  FitInputs& operator=(const FitInputs&) = delete;

  SceneDescription description;
  BuiltScene scene;
  FitObservations observations;  // the loss (optim/fit_loss.h)
  std::string observationDir;
};

// Loads the scene and the observations, prints one line about them. InputError names
// the file or option for bad input.
void loadFitInputs(const FitInputOptions& options, FitInputs& inputs);

// The fit setup of the loaded inputs (the scene's trajectory up to the last observed
// frame; optim/fit_setup.h).
FitSetup inputsFitSetup(FitInputs& inputs, const FitInputOptions& options);

// "E=2500,nu=0.35" -> values by parameter name; InputError naming `option`.
std::map<std::string, double> parseStart(const std::string& text, const std::string& option = "--start");
// "E=3000 nu=0.3" for logs.
std::string formatPoint(const std::vector<std::string>& names, const VecX& p);

// Refuses point clouds that cannot constrain the fit (every point dropped at p0), after
// printing how many points each frame uses. Runs a copy of the problem: `problem` and
// its model stay as they were.
void checkPointUsage(FitInputs& inputs, const FitProblem& problem, const VecX& p0);

}  // namespace softfit::apps
