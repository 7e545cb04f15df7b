#include "optim/fit_loss.h"

#include <filesystem>
#include <stdexcept>
#include <string>

#include "forward/errors.h"
#include "observations/camera_json.h"
#include "observations/capture_io.h"
#include "observations/displacement_loss.h"
#include "observations/grid_sdf_point_loss.h"
#include "observations/pixel_point_loss.h"
#include "observations/point_cloud_loss.h"
#include "observations/rendered_mixture_loss.h"

namespace softfit {

PointCostGeometry pointCostGeometry(const BuiltScene& scene) {
  PointCostGeometry g;
  g.surface = &scene.embeddedSurface;
  g.grid = scene.grid;
  g.referenceNodes = &scene.model->restPositions();
  return g;
}

std::string captureCamerasPath(const std::string& dir, const FitLossOptions& options) {
  return options.cameras.empty() ? (std::filesystem::path(dir) / "cameras.json").string() : options.cameras;
}

std::string resolvePointCost(const std::string& cost, bool grid, double noiseSigma, int bootstrapSteps) {
  if (cost != "auto") return cost;
  return grid && (noiseSigma == 0.0 || bootstrapSteps > 0) ? "sdf" : "closest";
}

PointCloudLossOptions pointLossOptions(const Capture& capture, double dt, const std::string& cost,
                                       const FitLossOptions& options) {
  PointCloudLossOptions o;
  o.stride = frameStride(capture, dt);
  o.huberDelta = options.huber;
  o.averageOverPoints = true;
  o.noiseSigma = cost == "sdf" ? 0.0 : options.noiseSigma;
  return o;
}

std::unique_ptr<CaptureLoss> makeCapturePointLoss(const PointCostGeometry& geometry, const Capture& capture,
                                                  const PointCloudLossOptions& options, const std::string& cost,
                                                  const FitLossOptions::Names& names) {
  if (cost == "closest") {
    if (!geometry.surface) throw std::invalid_argument("makeCapturePointLoss: closest needs a surface");
    return std::make_unique<PointCloudSurfaceLoss>(capture, *geometry.surface, options,
                                                   geometry.referenceNodes ? *geometry.referenceNodes : VecX());
  }
  if (cost == "sdf") {
    if (!geometry.grid) throw InputError(names.pointCost + " sdf needs a grid (sdf) scene; use closest for tet meshes");
    return std::make_unique<GridSdfPointLoss>(capture, geometry.grid, options);
  }
  if (cost == "mixture") {
    if (!geometry.surface) throw std::invalid_argument("makeCapturePointLoss: mixture needs a surface");
    if (!(options.noiseSigma > 0.0))
      throw InputError(names.pointCost + " mixture needs the points' noise sigma (" + names.noiseSigma + " > 0)");
    return std::make_unique<RenderedMixtureLoss>(capture, *geometry.surface, geometry.cameras, options);
  }
  if (cost == "pixel") {
    if (!geometry.surface) throw std::invalid_argument("makeCapturePointLoss: pixel needs a surface");
    if (!(options.noiseSigma > 0.0))
      throw InputError(names.pointCost + " pixel needs the points' noise sigma (" + names.noiseSigma + " > 0)");
    return std::make_unique<PixelPointLoss>(capture, *geometry.surface, geometry.cameras, options);
  }
  throw InputError(names.pointCost + " = \"" + cost + "\": unknown (valid: auto, closest, sdf, mixture, pixel)");
}

std::unique_ptr<CaptureLoss> FitObservations::pointLossOf(const Capture& other) const {
  return makeCapturePointLoss(geometry, other, lossOptions, cost, names);
}

FitObservations loadFitObservations(const std::string& dir, const BuiltScene& scene, double dt,
                                    const FitLossOptions& options) {
  namespace fs = std::filesystem;
  FitObservations o;
  o.names = options.names;
  std::string kind = options.loss;
  if (kind == "auto") kind = fs::exists(fs::path(dir) / "capture.json") ? "points" : "displacements";
  if (kind == "points") {
    o.capture = loadCapture(dir);
    o.geometry = pointCostGeometry(scene);
    o.cost = resolvePointCost(options.pointCost, scene.isGrid(), options.noiseSigma, options.bootstrapSteps);
    o.lossOptions = pointLossOptions(*o.capture, dt, o.cost, options);
    if (o.cost == "mixture" || o.cost == "pixel")
      o.geometry.cameras = readCameras(captureCamerasPath(dir, options));
    // A capture folder keeps pixel ids only for frames of one depth image, whose pixels
    // name one camera: the camera file must hold exactly that one.
    if (o.cost == "pixel" && o.geometry.cameras.size() != 1)
      throw InputError(captureCamerasPath(dir, options) + ": " + options.names.pointCost + " pixel on a capture folder needs exactly one "
                       "camera (that of its depth images), got " + std::to_string(o.geometry.cameras.size()));
    std::unique_ptr<CaptureLoss> points = o.pointLossOf(*o.capture);
    o.frames = o.capture->frameCount();
    o.steps = points->lastStep();
    o.pointLoss = points.get();
    o.loss = std::move(points);
  } else if (kind == "displacements") {
    DisplacementObservations observations = readDisplacementObservations((fs::path(dir) / "displacements.json").string());
    int stride = 1;
    if (observations.dt > 0.0) stride = observationStride(observations.dt, dt, observations.source);
    o.frames = static_cast<int>(observations.frames.size());
    auto displacements = std::make_unique<DisplacementLoss>(std::move(observations), scene.model->nodeCount(), stride);
    o.steps = displacements->lastStep();
    o.loss = std::move(displacements);
  } else {
    throw InputError(options.names.loss + " = \"" + kind + "\": unknown (valid: auto, points, displacements)");
  }
  return o;
}

}  // namespace softfit
