#include "reconstruct/reconstruction.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <utility>
#include <nlohmann/json.hpp>

#include "forward/errors.h"
#include "forward/io/obj_writer.h"
#include "forward/io/output_folder.h"
#include "forward/io/text_output.h"
#include "forward/value_limits.h"
#include "grid/sdf_volume_file.h"
#include "observations/depth_sensor_json.h"
#include "observations/ply_io.h"
#include "optim/report/ground_truth.h"
#include "reconstruct/projection_image.h"
#include "reconstruct/sdf_redistance.h"
#include "reconstruct/shape_comparison.h"
#include "reconstruct/sigma_ply_writer.h"
#include "reconstruct/surface_extraction.h"
#include "reconstruct/surface_refinement.h"
#include "reconstruct/tsdf_fusion.h"

namespace softfit {

namespace fs = std::filesystem;

namespace {

std::string numbered(const char* prefix, int frame, const char* extension) {
  char name[64];
  std::snprintf(name, sizeof name, "%s_%06d%s", prefix, frame, extension);
  return name;
}

std::vector<FusionView> fusionViews(const RawDepthCapture& capture, const CaptureSegmentation& segmentation) {
  std::vector<FusionView> views;
  for (std::size_t k = 0; k < capture.restFrames.size(); ++k)
    for (std::size_t i = 0; i < capture.restFrames[k].views.size(); ++i) {
      const RawDepthView& raw = capture.restFrames[k].views[i];
      const SegmentedView& seg = segmentation.restFrames[k].views[i];
      FusionView view;
      view.camera = capture.cameras[raw.camera].camera;
      view.fullDepth = raw.depth;
      view.objectDepth = DepthMap(raw.depth.width, raw.depth.height);
      for (std::size_t j = 0; j < seg.labels.size(); ++j)
        if (seg.labels[j] == PointLabel::Object)
          view.objectDepth.depth[seg.points.pixels[j]] = raw.depth.depth[seg.points.pixels[j]];
      views.push_back(std::move(view));
    }
  return views;
}

// OUT/observations: the segmented clouds with their sigmas, as a capture folder.
void writeObservations(const fs::path& dir, const RawDepthCapture& capture, const CaptureSegmentation& segmentation,
                       const DepthNoise& noise, int& emptyFrames) {
  fs::create_directories(dir / "frames");
  nlohmann::json frames = nlohmann::json::array(), rest = nlohmann::json::array();
  std::vector<double> sigmas;
  emptyFrames = 0;
  for (std::size_t f = 0; f < segmentation.frames.size(); ++f) {
    const SegmentedFrame& s = segmentation.frames[f];
    const std::string file = "frames/" + numbered("frame", static_cast<int>(f), ".ply");
    writePlyWithSigma((dir / file).string(), s.object, s.objectSigmas);
    frames.push_back({{"frame", f}, {"weight", capture.frames[f].weight}, {"cloud", file}});
    if (s.object.empty()) ++emptyFrames;
    sigmas.insert(sigmas.end(), s.objectSigmas.begin(), s.objectSigmas.end());
  }
  for (std::size_t f = 0; f < segmentation.restFrames.size(); ++f) {
    const SegmentedFrame& s = segmentation.restFrames[f];
    const std::string file = "frames/" + numbered("rest", static_cast<int>(f), ".ply");
    writePlyWithSigma((dir / file).string(), s.object, s.objectSigmas);
    rest.push_back({{"frame", f}, {"weight", capture.restFrames[f].weight}, {"cloud", file}});
  }
  nlohmann::json root = nlohmann::json::object();
  root["frame_count"] = segmentation.frames.size();
  root["dt"] = capture.dt;
  root["description"] = "object points segmented by softfit reconstruct from " + capture.jsonPath +
                        "; each PLY vertex has a 'sigma' property (depth noise, metres)";
  if (emptyFrames > 0) root["allow_empty_frames"] = true;
  root["frames"] = frames;
  root["rest_frames"] = rest;
  writeTextFile((dir / "capture.json").string(), root.dump(2) + "\n");
  std::sort(sigmas.begin(), sigmas.end());
  const nlohmann::json sensor = depthSensorModelJson(noise.sensor);
  const bool kinect = sensor == depthSensorModelJson(DepthSensorModel::kinectV1());
  nlohmann::json noiseJson = {
      {"model", noise.sensor.isIdeal() ? "ideal" : kinect ? "kinect" : "custom"},
      {"sensor", sensor},
      {"sigma", "per point: the 'sigma' vertex property of every PLY (metres), sigma_z at the point's depth"},
      {"median_sigma", sigmas.empty() ? 0.0 : sigmas[sigmas.size() / 2]},
      {"max_sigma", sigmas.empty() ? 0.0 : sigmas.back()}};
  writeTextFile((dir / "noise.json").string(), noiseJson.dump(2) + "\n");
}

// The scene reconstruct will write, checked by the scene reader before any work (its time
// axis from the capture's dt and the stride, the starting material values).
void checkSceneToWrite(const RawDepthCapture& capture, const ReconstructOptions& options, const std::string& outDir) {
  const ReconstructOptions::Names& names = options.names;
  const long long steps = static_cast<long long>(capture.frames.size() - 1) * options.stride;
  if (steps > std::numeric_limits<int>::max())
    throw InputError(names.stride + " = " + std::to_string(options.stride) + ": " +
                     std::to_string(capture.frames.size()) + " frames would take " + std::to_string(steps) +
                     " simulation steps (at most " + std::to_string(std::numeric_limits<int>::max()) + ")");
  FitSceneSettings planned = options.scene;
  planned.dt = capture.dt / options.stride;
  planned.steps = static_cast<int>(steps);
  planned.outputEvery = options.stride;
  planned.geometryFile = "shape/rest_sdf.json";
  planned.cellSize = options.cellSize > 0.0 ? options.cellSize : 1.0;
  try {
    checkFitScene(planned, (fs::path(outDir) / "scene.json").string());
  } catch (const InputError& e) {
    const std::string why = planned.dt < kMinTimeStep ? " (capture dt " + formatValue(capture.dt) + " s / " +
                                                            names.stride + " " + std::to_string(options.stride) + ")"
                                                      : std::string();
    throw InputError(std::string("the scene to be written is not valid: ") + e.what() + why);
  }
}

// InputError unless `size` gives between `lo` and `hi` of `what` across the object.
constexpr double kMaxVoxelsAcross = 300.0, kMaxCellsAcross = 200.0;
void requireSizeAcross(double size, double objectSize, const std::string& name, double lo, double hi,
                       const char* what) {
  const double across = objectSize / size;
  if (across >= lo && across <= hi) return;
  char text[256];
  std::snprintf(text, sizeof text, " = %g m: gives %.3g %s across the %.3g m object (allowed: %g to %g)", size, across,
                what, objectSize, lo, hi);
  throw InputError(name + text);
}

}  // namespace

ReconstructSummary reconstructCapture(const std::string& captureDir, const std::string& outDir,
                                      const ReconstructOptions& options) {
  const ReconstructOptions::Names& names = options.names;
  if (options.stride < 1) throw InputError(names.stride + " = " + std::to_string(options.stride) + ": must be at least 1");
  for (const auto& [value, name] : {std::pair{options.voxel, names.voxel}, std::pair{options.cellSize, names.cellSize}})
    if (!(value >= 0.0) || !std::isfinite(value))
      throw InputError(name + " = " + formatValue(value) + ": must be a finite size in metres > 0 (or not given)");
  // Before any work: OUT must not be the current folder or hold an input, and an existing
  // OUT keeps every file that no earlier reconstruct wrote (forward/io/output_folder.h).
  StagedFolder staged(outDir, {captureDir, options.truthScene}, kReconstructOutputs, names.output);
  RawDepthCapture capture = readRawDepthCapture(captureDir);
  const long long outOfRange =
      clearDepthsOutsideRange(capture, options.noise.sensor.minRangeMetres, options.noise.sensor.maxRangeMetres);
  // A synthetic capture's truth.json, checked now (it only feeds the fit's report: a bad
  // one is a warning, not copied).
  const OptionalGroundTruth truth = readOptionalGroundTruth((fs::path(captureDir) / "truth.json").string());
  checkSceneToWrite(capture, options, outDir);
  const CaptureSegmentation segmentation = segmentCapture(capture, options.noise, options.segmentation);

  ReconstructSummary summary;
  if (!truth.warning.empty()) summary.warnings.push_back(truth.warning);
  summary.groundNormal = segmentation.ground.normal;
  summary.groundOffset = segmentation.ground.offset;
  summary.objectSize = (segmentation.restHi - segmentation.restLo).norm();
  summary.voxel = options.voxel > 0.0 ? options.voxel : summary.objectSize / options.voxelsAcross;
  summary.cellSize = options.cellSize > 0.0 ? options.cellSize : summary.objectSize / options.cellsAcross;
  // Sizes that the object's size makes absurd: refused before the fusion allocates its volume.
  requireSizeAcross(summary.voxel, summary.objectSize, options.voxel > 0.0 ? names.voxel : "the default voxel", 4.0,
                    kMaxVoxelsAcross, "voxels");
  requireSizeAcross(summary.cellSize, summary.objectSize,
                    options.cellSize > 0.0 ? names.cellSize : "the default cell size", 1.0, kMaxCellsAcross,
                    "grid cells");
  summary.cameras = static_cast<int>(capture.cameras.size());
  summary.depthsOutOfRange = outOfRange;
  summary.restFrames = static_cast<int>(segmentation.restFrames.size());
  summary.frames = static_cast<int>(segmentation.frames.size());
  summary.flyingPixels = segmentation.flyingPixels;

  FusionOptions fusion;
  fusion.voxel = summary.voxel;
  const Vec3 margin = Vec3::Constant(0.2 * summary.objectSize + 4.0 * summary.voxel);
  fusion.lo = segmentation.restLo - margin;
  fusion.hi = segmentation.restHi + margin;
  fusion.groundNormal = segmentation.ground.normal;
  fusion.groundOffset = segmentation.ground.offset;
  // lowest: the object's lowest point above the ground, each point raised by
  // kLowestSigmas of its depth noise (the plain minimum over a million noisy points lies
  // about 3.5 sigma below the true underside: 6 mm for the demo's Kinect box).
  constexpr double kLowestSigmas = 2.0;
  double maxSigma = 0.0, lowest = INFINITY;
  for (const SegmentedFrame& s : segmentation.restFrames) {
    for (double sigma : s.objectSigmas) maxSigma = std::max(maxSigma, sigma);
    for (int i = 0; i < s.object.size(); ++i) {
      const double sigma = i < static_cast<int>(s.objectSigmas.size()) ? s.objectSigmas[i] : 0.0;
      lowest = std::min(lowest, segmentation.ground.normal.dot(s.object.point(i)) + segmentation.ground.offset +
                                    kLowestSigmas * sigma);
    }
  }
  fusion.groundBand = options.segmentation.segmentation.groundSigmas * maxSigma + summary.voxel;
  if (lowest > 2.0 * fusion.groundBand) {
    // The object does not touch the floor (held or hanging in the rest frames): what no
    // camera sees below it is closed flat at its lowest seen point instead of the floor.
    fusion.groundOffset -= lowest;
    fusion.groundBand = 0.0;
    summary.floating = true;
  }
  PointCloud restCloud;
  for (const SegmentedFrame& s : segmentation.restFrames) appendCloud(restCloud, s.object);
  FusionResult fused = fuseRestShape(fusionViews(capture, segmentation), options.noise, fusion);
  std::vector<double> restSigmas;
  for (const SegmentedFrame& s : segmentation.restFrames)
    restSigmas.insert(restSigmas.end(), s.objectSigmas.begin(), s.objectSigmas.end());
  const bool refine = options.surfaceRefinementIterations > 0;
  const auto extractSurface = [&] {
    TriangleSurface extracted = extractZeroSurface(fused.volume);
    if (refine) {
      SurfaceRefinementOptions refinement;
      refinement.iterations = options.surfaceRefinementIterations;
      refinement.radius = 4.0 * summary.voxel;
      refinement.maxDistance = 2.0 * summary.voxel;
      refinement.maxShift = summary.voxel;
      summary.refinement = refineSurfaceToPoints(extracted, restCloud, restSigmas, refinement);
    }
    return extracted;
  };
  TriangleSurface surface = extractSurface();
  if (options.trimUnseenFill) {
    UnseenFillOptions trim;
    trim.groundNormal = fusion.groundNormal;
    trim.groundOffset = fusion.groundOffset;
    trim.groundBand = fusion.groundBand;
    // Seen: a rest point within 1.5 pixel footprints (at the farthest camera's distance
    // to the object; sparse pixels must not open holes) of a triangle, plus half a voxel
    // on the refined surface (1.5 on the fused one, which can lie a voxel off the points).
    // No noise term: with every rest frame's points, the nearest one to a seen triangle
    // lies close even at Kinect noise (3 sigma = 78 mm at 4 m).
    const Vec3 centroid = restCloud.points.colwise().mean().transpose();
    double footprint = 0.0;
    for (const auto& c : capture.cameras)
      footprint = std::max(footprint, (centroid - c.camera.cameraToWorld().block<3, 1>(0, 3)).norm() /
                                          std::min(c.camera.intrinsics.fx, c.camera.intrinsics.fy));
    trim.seenDistance = 1.5 * footprint + (refine ? 0.5 : 1.5) * summary.voxel;
    // A held object is closed flat at its lowest seen point, where its seen sides end: keep
    // a voxel and the footprint above that plane (on the floor the band does this).
    if (summary.floating) trim.floorMargin = summary.voxel + 1.5 * footprint;
    summary.unseenFill = trimUnseenFill(fused.volume, surface, restCloud, fused.shadowFilled, trim);
    if (summary.unseenFill.trimmedSamples > 0) surface = extractSurface();
  }
  summary.volume = enclosedVolume(surface);
  {
    // The rigid flight of the first motion frames, registered to the rest surface; poses
    // closer than half a voxel (the surface's own resolution) to a flight count as on it.
    std::vector<PointCloud> firstFrames;
    for (int f = 0; f <= options.initialMotion.frames && f < summary.frames; ++f)
      firstFrames.push_back(segmentation.frames[f].object);
    InitialMotionOptions motion = options.initialMotion;
    motion.positionTolerance = std::max(motion.positionTolerance, 0.5 * summary.voxel);
    summary.motion = estimateInitialMotion(surface, firstFrames, capture.dt, -kStandardGravity * segmentation.ground.normal,
                                           segmentation.ground.normal, motion);
  }
  // The written SDF: the exact distance to that surface (sdf_redistance.h), or the fused
  // values when the surface is not a closed manifold.
  SdfVolume restSdf = fused.volume;
  summary.exactDistance = redistanceToSurface(restSdf, surface);

  // Everything is written into the staging folder, moved into OUT at the end.
  const fs::path partial = staged.path();
  {
    fs::create_directories(partial / "shape");
    fs::create_directories(partial / "report");
    writeSdfVolume((partial / "shape" / "rest_sdf.json").string(), restSdf);
    writeObj((partial / "shape" / "rest_surface.obj").string(), surface.vertices, surface.triangles);
    // The tet scene's surface: the SDF resampled at half the grid cell, so that TetGen
    // makes about as many elements as the grid has cells (the fused surface has ~100x more).
    const TriangleSurface coarse = extractZeroSurface(sampleSdf(VolumeSdf(restSdf), 0.5 * summary.cellSize));
    writeObj((partial / "shape" / "tet_surface.obj").string(), coarse.vertices, coarse.triangles);

    FitSceneSettings scene = options.scene;
    scene.name = "reconstructed by softfit reconstruct from " + capture.jsonPath;
    scene.groundNormal = segmentation.ground.normal;
    scene.groundOffset = segmentation.ground.offset;
    scene.dt = capture.dt / options.stride;
    scene.steps = (summary.frames - 1) * options.stride;
    scene.outputEvery = options.stride;
    scene.cellSize = summary.cellSize;
    if (summary.motion.estimated) {
      scene.initialMotion = true;
      scene.velocity = summary.motion.velocity;
      scene.angularVelocity = summary.motion.angularVelocity;
      scene.motionCenter = summary.motion.center;
    }
    scene.geometryKey = "sdf";
    scene.geometryFile = "shape/rest_sdf.json";
    scene.surfaceMeshFile = "shape/rest_surface.obj";
    writeFitScene((partial / "scene.json").string(), scene);
    scene.geometryKey = "mesh";
    scene.geometryFile = "shape/tet_surface.obj";
    writeFitScene((partial / "scene_tets.json").string(), scene);

    writeObservations(partial / "observations", capture, segmentation, options.noise, summary.framesWithoutObject);
    // A synthetic capture's true parameters travel along, so `softfit fit` prints them.
    if (!truth.values.empty()) writeGroundTruth((partial / "observations" / "truth.json").string(), truth.values);
    for (const SegmentedFrame& s : segmentation.frames) summary.objectPoints += s.object.size();

    // Report: the segmented clouds of a few frames, the fused surface, the numbers.
    const fs::path report = partial / "report";
    writePly((report / "rest_object.ply").string(), restCloud);
    for (int f : {0, summary.frames / 2, summary.frames - 1})
      writePly((report / numbered("frame", f, "_object.ply")).string(), segmentation.frames[f].object);
    writeObj((report / "rest_surface.obj").string(), surface.vertices, surface.triangles);
    TriangleSurface truth;
    if (!options.truthScene.empty()) truth = sceneRestSurface(options.truthScene);
    writeProjectionImage((report / "rest_shape.png").string(), surface, truth, segmentation.ground.normal);
    nlohmann::json json = {
        {"capture", capture.jsonPath},
        {"ground", {{"normal", {summary.groundNormal[0], summary.groundNormal[1], summary.groundNormal[2]}},
                    {"offset", summary.groundOffset}}},
        {"object_size", summary.objectSize},
        {"voxel", summary.voxel},
        {"cell_size", summary.cellSize},
        {"volume", summary.volume},
        {"floating", summary.floating},
        {"sdf", summary.exactDistance ? "exact distance to rest_surface.obj" : "fused values (surface not closed)"},
        {"cameras", summary.cameras},
        {"depths_out_of_range", summary.depthsOutOfRange},
        {"rest_frames", summary.restFrames},
        {"frames", summary.frames},
        {"frames_without_object", summary.framesWithoutObject},
        {"object_points", summary.objectPoints},
        {"flying_pixels_removed", summary.flyingPixels},
        {"inconsistent_rest_depths_removed", segmentation.inconsistentRestDepths},
        {"surface_refinement", {{"iterations", options.surfaceRefinementIterations},
                                {"points_used", summary.refinement.pointsUsed},
                                {"mean_shift", summary.refinement.meanShift},
                                {"max_shift", summary.refinement.maxShift}}},
        {"cluster_radius", segmentation.clusterRadius},
        {"workspace", {{"centre", {segmentation.workspace.centre[0], segmentation.workspace.centre[1],
                                   segmentation.workspace.centre[2]}},
                       {"radius", segmentation.workspace.radius},
                       {"height", segmentation.workspace.height}}},
        {"initial_motion", {{"estimated", summary.motion.estimated},
                            {"frames", summary.motion.framesUsed},
                            {"velocity", {summary.motion.velocity[0], summary.motion.velocity[1], summary.motion.velocity[2]}},
                            {"angular_velocity", {summary.motion.angularVelocity[0], summary.motion.angularVelocity[1],
                                                  summary.motion.angularVelocity[2]}},
                            {"frames_registered", summary.motion.framesRegistered},
                            {"flight", summary.motion.sliding ? "sliding on the floor" : "free"},
                            {"center", {summary.motion.center[0], summary.motion.center[1], summary.motion.center[2]}},
                            {"flight_rms", summary.motion.flightRms},
                            {"registration_rms", summary.motion.rmsResidual}}},
        {"unseen_fill", {{"seen_triangles", summary.unseenFill.seenTriangles},
                         {"unseen_triangles", summary.unseenFill.unseenTriangles},
                         {"trimmed_voxels", summary.unseenFill.trimmedSamples},
                         {"removed_voxels", summary.unseenFill.removedSamples}}},
        {"voxels", {{"inside", fused.insideVoxels}, {"carved", fused.carvedVoxels}, {"observed", fused.observedVoxels}}}};
    if (!options.truthScene.empty()) {
      writeObj((report / "true_surface.obj").string(), truth.vertices, truth.triangles);
      const ShapeComparison c = compareShapes(surface, truth);
      summary.compared = true;
      summary.trueVolume = c.trueVolume;
      summary.volumeErrorPercent = c.volumeErrorPercent;
      summary.chamfer = c.chamfer;
      summary.chamferCells = c.chamfer / summary.cellSize;
      json["truth"] = {{"scene", options.truthScene},
                       {"true_volume", c.trueVolume},
                       {"volume_error_percent", c.volumeErrorPercent},
                       {"chamfer", c.chamfer},
                       {"chamfer_cells", summary.chamferCells}};
    }
    writeTextFile((report / "summary.json").string(), json.dump(2) + "\n");

    staged.install();
  }
  return summary;
}

}  // namespace softfit
