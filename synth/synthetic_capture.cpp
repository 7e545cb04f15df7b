#include "synth/synthetic_capture.h"

#include <cmath>
#include <filesystem>
#include <map>

#include "adjoint/parameter_space.h"
#include "forward/errors.h"
#include "forward/io/output_folder.h"
#include "forward/io/run_marker.h"
#include "grid/embedded_surface.h"
#include "observations/camera_json.h"
#include "observations/capture_io.h"
#include "observations/displacement_observations.h"
#include "observations/raw_depth_capture.h"
#include "observations/depth_sensor_json.h"
#include "observations/render_capture.h"
#include "observations/static_background.h"
#include "optim/report/ground_truth.h"
#include "scene/scene_builder.h"

namespace softfit {

namespace fs = std::filesystem;

void applyKinectLikeRig(CameraRigOptions& rig) {
  rig.width = 320;
  rig.height = 240;
  rig.fieldOfViewDegrees = 43.0;
}

namespace {

RawCaptureSummary writeRawCapture(const std::string& dir, const SyntheticCaptureOptions& options,
                                  const SceneDescription& description, const std::vector<State>& states,
                                  const EmbeddedSurface& surface, const std::vector<Camera>& cameras,
                                  const Vec3& motionMin, const Vec3& motionMax) {
  RawCaptureOptions raw;
  raw.sensor = depthSensorModelFromOption(options.sensor, options.names.sensor);
  raw.seed = options.seed;
  raw.stride = options.stride;
  raw.restFrames = options.restFrameCount();
  raw.simulationDt = description.dt;
  raw.description = "softfit synth, sensor " + options.sensor + (options.background ? ", with background" : "") +
                    ": raw depth images, rest frames first in the noise stream";
  StaticGeometry background;
  if (options.background) {
    BackgroundOptions b;
    if (description.ground) {
      b.hasGround = true;
      b.groundNormal = description.ground->normal;
      b.groundOffset = description.ground->offset;
    }
    background = makeStaticBackground(motionMin, motionMax, cameras, b);
  }
  return writeRawDepthCapture(dir, states, surface, background, cameras, raw);
}

// The true values of every parameter the scene defines (each region's too: body-wide
// and regional names overlap, which a fit refuses but a list of true values does not mind).
std::map<std::string, double> trueValues(const SceneDescription& description, BuiltScene& scene) {
  std::string names = "E,nu,density,alpha1,alpha2,gravity,velocity,angular_velocity";
  if (scene.model->ground) names += ",ground";
  std::vector<Parameter> parameters = parseParameterList(names);
  for (size_t r = 0; r < description.material.regions.size() + 1 && !description.material.regions.empty(); ++r)
    for (const Parameter& p : parseParameterList("E@" + std::to_string(r) + ",nu@" + std::to_string(r) +
                                                 ",density@" + std::to_string(r)))
      parameters.push_back(p);
  ParameterSpace space(parameters, scene.motion, scene.elementRegion);
  const VecX values = space.values(*scene.model);
  std::map<std::string, double> truth;
  for (int i = 0; i < space.size(); ++i) truth[space.names()[i]] = values[i];
  return truth;
}

}  // namespace

SyntheticCaptureSummary writeSyntheticCapture(const SceneDescription& description, const std::string& output,
                                              const SyntheticCaptureOptions& options) {
  // Options first: a bad one fails before the simulation.
  const SyntheticCaptureOptions::Names& n = options.names;
  checkOutputFolder(output, {}, n.output);
  const bool raw = options.raw();
  depthSensorModelFromOption(options.sensor, n.sensor);
  if (options.restFrames < -1) throw InputError(n.restFrames + ": must be >= 0");
  if (options.cameraCount < 1) throw InputError(n.cameraCount + ": must be at least 1");
  if (options.resolution < 1 || options.resolution > 10000) throw InputError(n.resolution + ": must be in [1, 10000]");
  if (options.stride < 1) throw InputError(n.stride + ": must be at least 1");
  if (!(options.noise >= 0.0) || !std::isfinite(options.noise)) throw InputError(n.noise + ": must be >= 0");
  if (raw && options.noise != 0.0)
    throw InputError(n.noise + ": isotropic point noise applies to point-cloud captures; with " + n.sensor + " / " +
                     n.background + " the sensor model makes the noise");
  beginRun(output, {"capture.json", "cameras.json", "displacements.json", "truth.json"});  // an earlier run's

  BuiltScene scene = buildScene(description);
  const std::vector<State> states = simulate(trajectorySetup(description, scene), true).states;

  // The whole motion's bounding box: the rig keeps the body in view, the background clear of it.
  Vec3 lo = Vec3::Constant(INFINITY), hi = Vec3::Constant(-INFINITY);
  for (const State& s : states) {
    Vec3 a, b;
    boundingBox(s.x, a, b);
    lo = lo.cwiseMin(a);
    hi = hi.cwiseMax(b);
  }
  std::vector<Camera> cameras;
  if (!options.cameras.empty()) {
    cameras = readCameras(options.cameras);
  } else {
    CameraRigOptions rig;
    rig.width = rig.height = options.resolution;
    if (raw && !options.resolutionGiven) applyKinectLikeRig(rig);
    rig.layout = description.ground ? CameraLayout::Hemisphere : CameraLayout::Sphere;
    if (description.ground) rig.up = description.ground->normal;
    cameras = camerasAroundBox(lo, hi, options.cameraCount, rig);
  }
  fs::create_directories(output);
  // Grid scenes: the surface at full reference-sample resolution (the geometry the
  // quadrature and the SDF point cost see), whatever the scene's output surface is.
  const EmbeddedSurface surface =
      scene.isGrid() ? extractEmbeddedSurface(*scene.grid, SurfaceResolution::Samples) : scene.embeddedSurface;
  SyntheticCaptureSummary summary;
  summary.cameras = static_cast<int>(cameras.size());
  if (raw) {
    const RawCaptureSummary r = writeRawCapture(output, options, description, states, surface, cameras, lo, hi);
    summary.frames = r.frames;
    summary.points = r.measuredPixels;
  } else {
    Capture capture = renderCapture(states, surface, cameras, NoiseOptions{options.noise, options.seed},
                                    options.stride, description.dt);
    const int rest = options.restFrameCount();
    if (rest > 0)  // the body at rest before the motion, its own noise stream (seed + 1)
      capture.restFrames = renderCapture(std::vector<State>(rest, states[0]), surface, cameras,
                                         NoiseOptions{options.noise, options.seed + 1}, 1, description.dt).frames;
    writeCapture(output, capture);
    summary.frames = capture.frameCount();
    summary.points = capture.totalPoints();
  }
  writeCameras((fs::path(output) / "cameras.json").string(), cameras);
  writeDisplacementObservations((fs::path(output) / "displacements.json").string(),
                                displacementObservationsFromStates(states, {}, options.stride, description.dt));
  writeGroundTruth((fs::path(output) / "truth.json").string(), trueValues(description, scene));
  markRunComplete(output, "softfit synth: " + std::to_string(summary.frames) + " frames");
  return summary;
}

}  // namespace softfit
