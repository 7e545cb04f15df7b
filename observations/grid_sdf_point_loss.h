#pragma once
// The thesis' grid point cost (grid_sdf_point_cost.h) over a capture (capture_loss.h):
// J_f(x) = sum_i rho(|phi(X_i(x))|) with X_i the reference position of p_fi located in
// the deformed cut-cell grid. Correspondence-free, for grid scenes (BuiltScene::grid).
#include <memory>

#include "grid/cut_cell_grid.h"
#include "observations/capture_loss.h"

namespace softfit {

class GridSdfPointLoss final : public CaptureLoss {
 public:
  // Throws InputError (naming the capture) for an invalid option or capture, or no grid.
  GridSdfPointLoss(Capture capture, std::shared_ptr<const CutCellGrid> grid, const PointCloudLossOptions& options = {});

  // Points changing cell make the value jump (grid_sdf_point_cost.h).
  bool valueJumps() const override { return true; }

  // Points dropped (no deformed cell within reach) by the last evaluated frame.
  int lastDropped() const override { return lastDropped_; }

 private:
  double frameCost(const PointCloud& cloud, const VecX& x, double weight, VecX& gx) override;

  std::shared_ptr<const CutCellGrid> grid_;
  int lastDropped_ = 0;
};

}  // namespace softfit
