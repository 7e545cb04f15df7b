#pragma once
// The thesis' correspondence-free point cost for cut-cell grids (thesis 5.4.3):
//   J(x) = weight * sum_i rho(|phi(X_i(x))|)
// where X_i is the reference position of the observed point p_i: the deformed cell that
// contains p_i is found (deformed_cell_locator.h) and its trilinear map inverted by
// Newton, xi_i = x_cell^-1(p_i); phi is the grid's reference SDF (its finest samples,
// SdfLattice::interpolateInCell) at xi_i. rho is the robust kernel (rho = phi^2/2 plain).
// Gradient: with J = dx/dxi and g = dphi/dxi at xi_i, dphi/dx_c = -N_c(xi_i) J^-T g.
// Where deformed cells overlap (the empty parts of cut cells carry no material and can
// fold over neighbours), the cell giving the smallest |phi| is used.
// Points just outside every cell (measured outside the object's outermost cells) use
// the nearest cell's trilinear extrapolation up to `maxOutside` cells; points farther out
// are dropped and counted.
// The cost is continuous across shared cell faces, but it jumps where a point's candidate cells
// change: entering or leaving a folded overlap, switching extrapolation cell, passing the
// extrapolation reach. Its gradient is the gradient of the current smooth piece, so fits
// with this cost use a gradient-only line search (OptimizerKind::GradientOnlyLbfgs;
// `noise_fit_bench gridprofile` shows jumps of ~1e-4 of the cost between nearby nu).
#include "grid/cut_cell_grid.h"
#include "observations/point_cloud.h"
#include "observations/robust_kernel.h"

namespace softfit {

struct GridSdfPointCostOptions {
  double maxOutside = 1.0;  // extrapolation reach in cell widths (0: only points inside cells)
  int threads = 0;          // 0 = all hardware threads; results do not depend on it
};

struct GridSdfPointCostResult {
  double value = 0.0;
  int dropped = 0;  // points with no cell within reach
};

// Adds dJ/dx to `gradient` when it is non-null (size 3 * grid.nodeCount()). Throws
// InputError for positions or a gradient of the wrong size and SolveError for
// non-finite positions.
GridSdfPointCostResult gridSdfPointCost(const PointCloud& cloud, const CutCellGrid& grid, const VecX& x,
                                        const RobustKernel& kernel, double weight, VecX* gradient,
                                        const GridSdfPointCostOptions& options = {});

}  // namespace softfit
