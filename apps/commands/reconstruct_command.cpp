#include "apps/commands/reconstruct_command.h"

#include <chrono>
#include <cstdio>
#include <memory>

#include "apps/commands/option_checks.h"
#include "forward/errors.h"
#include "forward/io/output_folder.h"
#include "forward/materials/material.h"
#include "forward/value_limits.h"
#include "observations/depth_sensor_json.h"
#include "reconstruct/reconstruction.h"

namespace softfit::apps {

namespace {

struct ReconstructCliOptions {
  std::string capture;
  std::string output = "results/reconstruction";
  std::string sensor = "kinect";
  ReconstructOptions reconstruct;
  bool keepUnseenFill = false;
};

void runReconstruct(ReconstructCliOptions& o) {
  checkOutputFolder(o.output, {o.capture, o.reconstruct.truthScene, o.sensor}, "-o");
  o.reconstruct.names = {"-o", "--voxel", "--cell-size", "--stride"};
  o.reconstruct.noise.sensor = depthSensorModelFromOption(o.sensor, "--sensor");
  o.reconstruct.trimUnseenFill = !o.keepUnseenFill;
  // The ranges every reader of these values checks (forward/value_limits.h).
  const FitSceneSettings& s = o.reconstruct.scene;
  requireInRange(s.youngsModulus, kYoungsModulusRange, "--youngs");
  requireInRange(s.poissonRatio, kPoissonRatioRange, "--poisson");
  requireInRange(s.density, kDensityRange, "--density");
  parseMaterialModel(s.material, "--material");
  const auto start = std::chrono::steady_clock::now();
  const ReconstructSummary r = reconstructCapture(o.capture, o.output, o.reconstruct);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("softfit reconstruct: %s -> %s (%.1f s)\n", o.capture.c_str(), o.output.c_str(), seconds);
  std::printf("  ground normal (%.6f, %.6f, %.6f) offset %.6f\n", r.groundNormal[0], r.groundNormal[1],
              r.groundNormal[2], r.groundOffset);
  std::printf("  %d cameras, %d rest frames, %d frames (%d without the object), %lld object points, %d flying pixels "
              "removed\n",
              r.cameras, r.restFrames, r.frames, r.framesWithoutObject, r.objectPoints, r.flyingPixels);
  std::printf("  rest shape: size %.4f m, voxel %.4f m, volume %.6g m^3, grid cell %.4f m\n", r.objectSize, r.voxel,
              r.volume, r.cellSize);
  if (r.unseenFill.trimmedSamples > 0)
    std::printf("  unseen fill: %d voxels outside the seen surface removed (%d of %d surface triangles unseen)\n",
                r.unseenFill.removedSamples, r.unseenFill.unseenTriangles,
                r.unseenFill.seenTriangles + r.unseenFill.unseenTriangles);
  if (r.refinement.pointsUsed > 0)
    std::printf("  surface refined onto %d rest points: mean move %.2f mm, largest %.2f mm\n", r.refinement.pointsUsed,
                1e3 * r.refinement.meanShift, 1e3 * r.refinement.maxShift);
  if (r.compared)
    std::printf("  vs truth: volume %.6g m^3 (%+.2f%%), symmetric Chamfer %.5f m = %.3f cells\n", r.trueVolume,
                r.volumeErrorPercent, r.chamfer, r.chamferCells);
  if (r.motion.estimated)
    std::printf("  initial motion (frames 1..%d, registration RMS %.4f m): velocity (%.4f, %.4f, %.4f) m/s, "
                "angular velocity (%.4f, %.4f, %.4f) rad/s\n",
                r.motion.framesUsed, r.motion.rmsResidual, r.motion.velocity[0], r.motion.velocity[1],
                r.motion.velocity[2], r.motion.angularVelocity[0], r.motion.angularVelocity[1],
                r.motion.angularVelocity[2]);
  std::printf("  wrote scene.json, scene_tets.json, shape/, observations/, report/\n");
  for (const std::string& w : r.warnings) std::fprintf(stderr, "warning: %s\n", w.c_str());
}

}  // namespace

void addReconstructCommand(CLI::App& app) {
  auto o = std::make_shared<ReconstructCliOptions>();
  CLI::App* cmd = app.add_subcommand(
      "reconstruct", "Raw depth capture (PNGs, rest frames, no masks) -> fit-ready scene.json + observations + report");
  cmd->add_option("capture", o->capture, "Capture folder (capture.json with depth frames and rest_frames)")
      ->required()
      ->check(CLI::ExistingDirectory);
  cmd->add_option("-o,--output", o->output, "Output folder (its earlier reconstruct outputs are replaced when the run succeeds; no other file is touched)")->capture_default_str();
  cmd->add_option("--sensor", o->sensor, "Depth noise model: kinect, ideal, or a sensor JSON file (observations/README.md)")->capture_default_str();
  cmd->add_option("--voxel", o->reconstruct.voxel, "TSDF voxel size in metres (default: object size / 48)")
      ->check(numberAbove(0.0));
  cmd->add_option("--cell-size", o->reconstruct.cellSize, "Grid cell size in metres (default: object size / 8)")
      ->check(numberAbove(0.0));
  cmd->add_option("--stride", o->reconstruct.stride, "Simulation steps per capture frame")
      ->capture_default_str()
      ->check(integerBetween(1, 1000000));
  cmd->add_option("--velocity-frames", o->reconstruct.initialMotion.frames,
                  "At most this many motion frames are registered to the rest surface for the initial rigid "
                  "motion; only those before the first contact are used (0: no initial motion)")
      ->capture_default_str()
      ->check(CLI::Range(0, 1000));
  cmd->add_option("--refine-iterations", o->reconstruct.surfaceRefinementIterations,
                  "Iterations moving the fused rest surface onto the rest points (0: off)")
      ->capture_default_str()
      ->check(CLI::Range(0, 100));
  cmd->add_flag("--keep-unseen-fill", o->keepUnseenFill,
               "Close what no camera saw by the cameras' shadows (space carving alone) instead of the "
               "seen surface's winding number");
  cmd->add_flag("--angular-velocity,!--no-angular-velocity", o->reconstruct.initialMotion.angular,
               "Estimate the initial angular velocity from those frames (the default; --no-angular-velocity: 0)");
  cmd->add_option("--youngs", o->reconstruct.scene.youngsModulus, "Starting Young's modulus")->capture_default_str();
  cmd->add_option("--poisson", o->reconstruct.scene.poissonRatio, "Starting Poisson ratio")->capture_default_str();
  cmd->add_option("--density", o->reconstruct.scene.density, "Density")->capture_default_str();
  cmd->add_option("--material", o->reconstruct.scene.material, "Material model of the scene")->capture_default_str();
  cmd->add_option("--truth-scene", o->reconstruct.truthScene,
                  "The true scene (synthetic captures): report volume and Chamfer distance vs its rest shape")
      ->check(CLI::ExistingFile);
  cmd->callback([o] { runReconstruct(*o); });
}

}  // namespace softfit::apps
