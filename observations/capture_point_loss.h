#pragma once
// The point-cloud cost of a capture for a built scene, by name: "closest" (closest point
// on the deformed surface, tets and grids) or "sdf" (the thesis grid cost), and what
// "auto" picks. Shared by `softfit fit` and the Python module.
#include <memory>
#include <string>

#include "observations/capture_loss.h"
#include "scene/scene_builder.h"

namespace softfit {

// "auto" -> "sdf" for grid scenes without noise correction (or with bootstrap steps),
// else "closest"; other names are returned unchanged.
std::string resolvePointCost(const std::string& cost, bool grid, double noiseSigma, int bootstrapSteps);

// InputError for an unknown cost, or "sdf" on a tet scene.
std::unique_ptr<CaptureLoss> makeCapturePointLoss(const BuiltScene& scene, const Capture& capture,
                                                  const PointCloudLossOptions& options, const std::string& cost);

}  // namespace softfit
