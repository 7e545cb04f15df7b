#pragma once
// What `softfit fit` and `softfit sweep` share: the scene, the observations and their
// cost (point clouds or node displacements), the parameter space, the start values and
// the fit problem. Both commands evaluate the very same cost through this one path.
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "observations/capture.h"
#include "observations/point_cloud_loss.h"
#include "optim/fit_problem.h"
#include "scene/scene_builder.h"
#include "scene/scene_description.h"

namespace softfit::apps {

struct FitInputOptions {
  std::string command = "fit";  // for the log line ("softfit fit: ...")
  std::string device = "cpu";
  std::string scene;
  std::string observations;
  std::string loss = "auto";       // auto, points, displacements
  std::string pointCost = "auto";  // auto, closest, sdf
  double huber = 0.0;
  double noiseSigma = 0.0;
  int bootstrapSteps = 0;          // only steers --point-cost auto
  std::string checkpointing = "all";
  int maxStates = 20;
};

// The loaded inputs. Filled in place by loadFitInputs (the loss refers to the scene), so
// neither copied nor moved.
struct FitInputs {
  FitInputs() = default;
  FitInputs(const FitInputs&) = delete;
  FitInputs& operator=(const FitInputs&) = delete;

  SceneDescription description;
  BuiltScene scene;
  std::unique_ptr<TrajectoryLoss> loss;
  CaptureLoss* pointLoss = nullptr;  // the loss, when the observations are point clouds
  std::optional<Capture> capture;
  PointCloudLossOptions lossOptions;
  std::string cost;                  // the point cost used: closest or sdf (point clouds)
  int steps = 0;                     // simulation steps up to the last observed frame
  std::string observationDir;
};

// Loads the scene and the observations, prints one line about them. InputError names
// the file or option for bad input.
void loadFitInputs(const FitInputOptions& options, FitInputs& inputs);

// The fit setup of the loaded inputs (the scene's trajectory up to the last observed frame).
FitSetup makeFitSetup(FitInputs& inputs, const FitInputOptions& options);

// "E=2500,nu=0.35" -> values by parameter name; InputError naming `option`.
std::map<std::string, double> parseStart(const std::string& text, const std::string& option = "--start");
// Overwrites the entries of p0 named in `values`, each checked against its parameter's
// range and magnitude limit; InputError naming `option` and the parameter.
void applyStartValues(const std::map<std::string, double>& values, const ParameterSpace& space,
                      const TransformSet& transforms, const std::string& parameterList, VecX& p0,
                      const std::string& option = "--start");

// "E=3000 nu=0.3" for logs.
std::string formatPoint(const std::vector<std::string>& names, const VecX& p);

// Refuses point clouds that cannot constrain the fit (every point dropped at p0), after
// printing how many points each frame uses. Leaves the model as it found it.
void checkPointUsage(FitInputs& inputs, FitProblem& problem, const VecX& p0);

}  // namespace softfit::apps
