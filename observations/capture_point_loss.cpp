#include "observations/capture_point_loss.h"

#include "forward/errors.h"
#include "observations/grid_sdf_point_loss.h"
#include "observations/point_cloud_loss.h"

namespace softfit {

std::string resolvePointCost(const std::string& cost, bool grid, double noiseSigma, int bootstrapSteps) {
  if (cost != "auto") return cost;
  return grid && (noiseSigma == 0.0 || bootstrapSteps > 0) ? "sdf" : "closest";
}

std::unique_ptr<CaptureLoss> makeCapturePointLoss(const BuiltScene& scene, const Capture& capture,
                                                  const PointCloudLossOptions& options, const std::string& cost) {
  if (cost == "closest")
    return std::make_unique<PointCloudSurfaceLoss>(capture, scene.embeddedSurface, options,
                                                   scene.model->restPositions());
  if (cost == "sdf") {
    if (!scene.isGrid()) throw InputError("--point-cost sdf needs a grid (sdf) scene; use closest for tet meshes");
    return std::make_unique<GridSdfPointLoss>(capture, scene.grid, options);
  }
  throw InputError("--point-cost = \"" + cost + "\": unknown (valid: auto, closest, sdf)");
}

}  // namespace softfit
