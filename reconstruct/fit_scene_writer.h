#pragma once
// The scene a fit starts from, written as JSON (forward/scene format, README "Scene
// JSON"): the reconstructed rest shape on a cut-cell grid ("sdf": {"type": "volume"}),
// or as a closed surface tetrahedralized by TetGen ("mesh": {"file": "*.obj"}); the
// fitted ground; gravity 9.81 m/s^2 along -normal; starting material values; dt =
// capture dt / stride, steps = (frame count - 1) x stride; the initial motion when
// estimated.
#include <string>

#include "forward/types.h"

namespace softfit {

// The gravity a reconstructed scene assumes: 9.81 m/s^2 against the ground's normal.
constexpr double kStandardGravity = 9.81;

struct FitSceneSettings {
  std::string geometryKey = "sdf";  // "sdf" (volume file, cut-cell grid) or "mesh" (OBJ + TetGen)
  std::string geometryFile;         // relative to the scene file
  double cellSize = 0.05;           // grid cell size ("sdf" only)
  std::string surfaceMeshFile;      // "sdf": the surface embedded in the grid (empty: its samples' surface)
  std::string material = "warped_corotated";
  double youngsModulus = 1e4, poissonRatio = 0.3, density = 100.0;
  double alpha1 = 0.1, alpha2 = 0.01;
  Vec3 groundNormal = Vec3::UnitY();
  double groundOffset = 0.0;
  double dt = 0.01;
  int steps = 0;
  int outputEvery = 1;
  // "initial": velocity v + omega x (X - center) (initial_motion.h); written when set.
  bool initialMotion = false;
  Vec3 velocity = Vec3::Zero(), angularVelocity = Vec3::Zero(), motionCenter = Vec3::Zero();
  std::string name;
};

// The scene reader's own checks (scene_loader.h: ranges, material names, time step) on
// the scene writeFitScene would write: InputError starting with `path` and naming the
// field. A scene that softfit writes is one that softfit reads.
void checkFitScene(const FitSceneSettings& settings, const std::string& path);

// checkFitScene, then writes the scene JSON to `path`; InputError naming the path when it
// cannot be written.
void writeFitScene(const std::string& path, const FitSceneSettings& settings);

}  // namespace softfit
