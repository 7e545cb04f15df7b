// Fig. 5.6 / 5.7a,b: the Fig. 5.4 bar and the Fig. 5.5 collision case as files for
// `softfit fit` and `softfit sweep` (bench/thesis_landscapes.sh draws the landscapes with
// the fits' paths from them).
#include <filesystem>
#include <fstream>

#include "bench/thesis_reproduction.h"
#include "bench/thesis_reproduction_scenes.h"
#include "forward/errors.h"
#include "forward/integrators/simulator.h"
#include "observations/displacement_observations.h"
#include "optim/report/ground_truth.h"
#include "scene/scene_builder.h"
#include "scene/scene_loader.h"

namespace softfit::thesis {

namespace {

// DIR/NAME.json, and its displacement observations (every node at every step, weight 1,
// as the joint-fit rows use) with the truth: DIR/observations/{displacements,truth}.json.
void writeCase(const std::string& dir, const std::string& name, const nlohmann::json& json,
               const std::map<std::string, double>& truth) {
  namespace fs = std::filesystem;
  fs::create_directories(fs::path(dir) / "observations");
  const std::string scenePath = (fs::path(dir) / (name + ".json")).string();
  std::ofstream(scenePath) << json.dump(2) << "\n";
  if (!fs::exists(scenePath)) throw InputError(scenePath + ": cannot write");
  const SceneDescription description = parseScene(json, scenePath, dir);
  BuiltScene scene = buildScene(description);
  Simulator sim(*scene.model, makeIntegrator(description.integrator), description.dt);
  const std::vector<State> states = sim.run(scene.initial, description.steps, true).states;
  writeDisplacementObservations((fs::path(dir) / "observations" / "displacements.json").string(),
                                displacementObservationsFromStates(states, {}, 1, description.dt));
  writeGroundTruth((fs::path(dir) / "observations" / "truth.json").string(), truth);
}

}  // namespace

void writeBarCase(const std::string& dir, const RunOptions& options) {
  writeCase(dir, "bar", barScene(options.quick ? 0.1 : 0.05),
            {{"E", 2000.0}, {"nu", 0.3}, {"alpha1", 0.1}, {"alpha2", 0.01}});
}

void writeCollisionCase(const std::string& dir, const RunOptions& options) {
  writeCase(dir, "collision", collisionScene(options.quick ? 0.1 : 0.05, kCollisionTheta, kCollisionPhi),
            {{"ground_theta", kCollisionTheta}, {"ground_phi", kCollisionPhi}});
}

}  // namespace softfit::thesis
