#pragma once
// softfit reconstruct: raw depth capture -> fit-ready scene + observations + report.
//   1. read the raw frames (raw_depth_frames.h) and segment them (capture_segmentation.h:
//      flying pixels, ground plane, static background, workspace, outliers, components);
//   2. fuse the rest frames into an SDF volume with carving (tsdf_fusion.h) and extract
//      its closed surface (surface_extraction.h), then move that surface onto the rest
//      frames' points (surface_refinement.h);
//   3. write, into a staging folder beside OUT (moved into OUT at the end, so a failed
//      run leaves no complete-looking OUT; forward/io/output_folder.h). An existing OUT
//      keeps every file of the user's: only an earlier reconstruct's files (listed in
//      OUT/files_written.txt) are replaced. OUT may not be the current folder, the
//      capture, or a folder holding either:
//        OUT/scene.json                 the body on a cut-cell grid (fit_scene_writer.h), with
//                                       the initial motion of the first frames (initial_motion.h)
//        OUT/scene_tets.json            the same with the closed surface through TetGen
//        OUT/shape/rest_sdf.json, .f64  the SDF volume (grid/sdf_volume_file.h)
//        OUT/shape/rest_surface.obj     the closed surface (marching cubes at the voxel size, refined)
//        OUT/shape/tet_surface.obj      the same at half the grid cell (scene_tets.json's)
//        OUT/observations/              capture folder for `softfit fit` (PLY clouds with
//                                       per-point sigma, sigma_ply_writer.h; CAPTURE/truth.json
//                                       copied when present)
//        OUT/report/                    summary.json, segmented clouds, fused surface,
//                                       rest_shape.png (projection_image.h)
#include <string>
#include <vector>

#include "reconstruct/capture_segmentation.h"
#include "reconstruct/fit_scene_writer.h"
#include "reconstruct/initial_motion.h"
#include "reconstruct/surface_refinement.h"
#include "reconstruct/unseen_fill_trim.h"

namespace softfit {

// The top-level names reconstruct writes into OUT.
inline const std::vector<std::string> kReconstructOutputs = {"scene.json", "scene_tets.json", "shape", "observations",
                                                             "report"};

struct ReconstructOptions {
  DepthNoise noise;            // the sensor's depth noise (kinect by default)
  double voxel = 0.0;          // TSDF voxel (m); 0 = object size / voxelsAcross
  int voxelsAcross = 48;
  double cellSize = 0.0;       // grid cell (m); 0 = object size / cellsAcross
  int cellsAcross = 8;
  int stride = 1;              // simulation steps per capture frame
  FitSceneSettings scene;      // starting material values (geometry, ground, time are filled in)
  std::string truthScene;      // optional: the true scene, for the report's shape comparison
  CaptureSegmentationOptions segmentation;
  InitialMotionOptions initialMotion;  // frames = 0: no initial velocity in scene.json
  // Iterations of the fused surface's refinement onto the rest points (surface_refinement.h;
  // kernel radius 4 voxels, points within 3 sigma + 2 voxels, at most a voxel per step). 0 = off.
  int surfaceRefinementIterations = 3;
  // Close what no camera saw by the winding number of the seen surface instead of the
  // cameras' shadows (unseen_fill_trim.h).
  bool trimUnseenFill = true;
  // How error messages name the options a caller gives (its CLI options or Python
  // arguments): the output folder, voxel, cellSize, stride.
  struct Names {
    std::string output = "output", voxel = "voxel", cellSize = "cell_size", stride = "stride";
  } names;
};

struct ReconstructSummary {
  Vec3 groundNormal = Vec3::UnitY();
  double groundOffset = 0.0;
  double objectSize = 0.0, voxel = 0.0, cellSize = 0.0, volume = 0.0;
  std::vector<std::string> warnings;  // what the caller should tell the user (a bad truth.json)
  int cameras = 0;  // one per intrinsics file
  long long depthsOutOfRange = 0;  // depths outside the sensor's range, cleared (no measurement)
  int restFrames = 0, frames = 0, framesWithoutObject = 0, flyingPixels = 0;
  long long objectPoints = 0;
  bool exactDistance = false;  // rest_sdf holds the exact distance to the fused surface (sdf_redistance.h)
  bool floating = false;  // the rest-frame object does not touch the ground (closed at its lowest point)
  UnseenFillResult unseenFill;          // shadow fill removed by the seen surface's winding number
  SurfaceRefinementSummary refinement;  // the fused surface moved onto the rest points
  InitialMotionEstimate motion;   // estimated from the first motion frames (initial_motion.h)
  bool compared = false;
  double trueVolume = 0.0, volumeErrorPercent = 0.0, chamfer = 0.0, chamferCells = 0.0;
};

// Throws InputError (naming the file and frame, or the option by `options.names`) for bad
// input; nothing is written into OUT then. Checked before any image is segmented: OUT,
// the capture's manifest and images, voxel and cellSize (0 or finite and positive),
// stride, and the scene that will be written (fit_scene_writer.h: checkFitScene).
ReconstructSummary reconstructCapture(const std::string& captureDir, const std::string& outDir,
                                      const ReconstructOptions& options);

}  // namespace softfit
