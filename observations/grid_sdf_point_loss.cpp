#include "observations/grid_sdf_point_loss.h"

#include "forward/errors.h"
#include "observations/grid_sdf_point_cost.h"

namespace softfit {

GridSdfPointLoss::GridSdfPointLoss(Capture capture, std::shared_ptr<const CutCellGrid> grid,
                                   const PointCloudLossOptions& options)
    : CaptureLoss(std::move(capture), options, "grid SDF point loss"), grid_(std::move(grid)) {
  if (!grid_) throw InputError(description() + ": the scene is not a cut-cell grid (use the closest-point cost)");
  if (options.noiseSigma > 0.0)
    throw InputError(description() + ": no noise correction for the grid SDF cost (use the closest-point cost)");
}

double GridSdfPointLoss::frameCost(const PointCloud& cloud, const VecX& x, double weight, VecX& gx) {
  GridSdfPointCostOptions costOptions;
  costOptions.maxOutside = options().maxOutside;
  costOptions.threads = options().threads;
  const GridSdfPointCostResult r =
      gridSdfPointCost(cloud, *grid_, x, RobustKernel{options().huberDelta}, weight, &gx, costOptions);
  lastDropped_ = r.dropped;
  return r.value;
}

}  // namespace softfit
