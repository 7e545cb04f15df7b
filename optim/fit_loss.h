#pragma once
// The loss of a fit's observations, chosen in this one place for every front end
// (`softfit fit` and `softfit sweep`, the Python module, bench/, tests): point clouds
// (capture.json) with the closest-point or the grid SDF cost, or node displacements
// (displacements.json); the frame stride from the observations' dt; the noise
// correction (closest-point cost only: with the SDF cost the noise sigma serves the
// bootstrap alone, bench/README.md "Fits with noisy point clouds"); the noise-aware
// rendered-mixture and per-pixel costs (sigma and the capture's cameras).
#include <memory>
#include <optional>
#include <string>

#include "grid/cut_cell_grid.h"
#include "grid/embedded_surface.h"
#include "observations/camera.h"
#include "observations/capture.h"
#include "observations/capture_loss.h"
#include "scene/scene_builder.h"

namespace softfit {

// What a point-cloud cost measures against.
struct PointCostGeometry {
  const EmbeddedSurface* surface = nullptr;  // closest: the deformed surface
  std::shared_ptr<const CutCellGrid> grid;   // sdf: the cut-cell grid (grid scenes), else null
  const VecX* referenceNodes = nullptr;      // closest: the rest positions (null: none)
  std::vector<Camera> cameras;               // mixture, pixel: the cameras that took the capture
};
// A built scene's: its output surface, its grid, its model's rest positions.
PointCostGeometry pointCostGeometry(const BuiltScene& scene);

struct FitLossOptions {
  std::string loss = "auto";       // auto (capture.json in the folder: points, else displacements), points, displacements
  std::string pointCost = "auto";  // auto, closest, sdf, mixture, pixel (resolvePointCost)
  double huber = 0.0;              // Huber delta on point distances (0 = squared)
  double noiseSigma = 0.0;         // known point noise (m): the closest-point cost's correction; the bootstrap's;
                                   // the mixture and pixel costs' sigma (required there)
  int bootstrapSteps = 0;          // only steers pointCost auto
  std::string cameras;             // mixture, pixel: the capture's cameras (empty: DIR/cameras.json)
  // How error messages name these options (the caller's CLI options or Python arguments).
  struct Names {
    std::string loss = "loss", pointCost = "point_cost", noiseSigma = "noise_sigma";
  } names;
};

// The camera file of capture folder `dir`: options.cameras, or DIR/cameras.json.
std::string captureCamerasPath(const std::string& dir, const FitLossOptions& options);

// "auto" -> "sdf" for grid scenes without noise correction (or with bootstrap steps),
// else "closest"; other names are returned unchanged.
std::string resolvePointCost(const std::string& cost, bool grid, double noiseSigma, int bootstrapSteps);

// The cost options of a capture fitted with `cost` (closest, sdf, mixture or pixel) at
// simulation step dt: the frame stride (frameStride; InputError naming the capture), the
// Huber delta, per-frame costs averaged over the points, the noise sigma for closest
// (its correction), mixture and pixel.
PointCloudLossOptions pointLossOptions(const Capture& capture, double dt, const std::string& cost,
                                       const FitLossOptions& options);

// InputError for an unknown cost, "sdf" without a grid, "mixture" or "pixel" without
// cameras or noise sigma, or "pixel" for a capture without pixel ids (pixel_point_loss.h:
// rendered captures, and capture folders with one depth image per frame; such a folder's
// camera file must then hold exactly that camera: loadFitObservations checks it).
std::unique_ptr<CaptureLoss> makeCapturePointLoss(const PointCostGeometry& geometry, const Capture& capture,
                                                  const PointCloudLossOptions& options, const std::string& cost,
                                                  const FitLossOptions::Names& names = {});

// The loss of an observation folder.
struct FitObservations {
  std::unique_ptr<TrajectoryLoss> loss;
  CaptureLoss* pointLoss = nullptr;  // the loss, when the observations are point clouds
  std::optional<Capture> capture;    // point clouds
  PointCloudLossOptions lossOptions; // point clouds
  std::string cost;                  // point clouds: the point cost used, closest or sdf
  int frames = 0;                    // observed frames
  int steps = 0;                     // simulation steps up to the last observed frame
  PointCostGeometry geometry;
  FitLossOptions::Names names;       // how messages name the options

  // The same point cost, with the same options, of another capture (a bootstrap's
  // synthetic one).
  std::unique_ptr<CaptureLoss> pointLossOf(const Capture& capture) const;
};

// Reads the observations of folder `dir` for a scene simulated at step dt. InputError
// names the file, or options.names for an unknown or unusable option.
FitObservations loadFitObservations(const std::string& dir, const BuiltScene& scene, double dt,
                                    const FitLossOptions& options);

}  // namespace softfit
