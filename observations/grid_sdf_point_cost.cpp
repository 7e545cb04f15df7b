#include "observations/grid_sdf_point_cost.h"

#include <Eigen/LU>
#include <cmath>
#include <vector>

#include "forward/errors.h"
#include "grid/trilinear_hex.h"
#include "observations/deformed_cell_locator.h"
#include "forward/math/parallel_ranges.h"

namespace softfit {

namespace {

struct PointSdf {
  int cell = -1;            // -1: dropped
  double phi = 0.0;
  HexShapeValues N = HexShapeValues::Zero();
  Vec3 dphiDx = Vec3::Zero();  // J^-T dphi/dxi: minus the derivative w.r.t. a translation of the cell
};

}  // namespace

GridSdfPointCostResult gridSdfPointCost(const PointCloud& cloud, const CutCellGrid& grid, const VecX& x,
                                        const RobustKernel& kernel, double weight, VecX* gradient,
                                        const GridSdfPointCostOptions& options) {
  validateRobustKernel(kernel);
  if (x.size() != 3 * grid.nodeCount())
    throw InputError("grid SDF point cost: positions have " + std::to_string(x.size()) + " entries, the grid has " +
                     std::to_string(grid.nodeCount()) + " nodes");
  if (gradient && gradient->size() != x.size())
    throw InputError("grid SDF point cost: gradient size " + std::to_string(gradient->size()) +
                     " differs from the positions' size " + std::to_string(x.size()));
  GridSdfPointCostResult result;
  if (cloud.empty() || weight == 0.0) return result;
  const DeformedCellLocator locator(grid, x);
  const SdfLattice& lattice = grid.lattice();
  std::vector<PointSdf> points(static_cast<size_t>(cloud.size()));
  forEachRangeInParallel(cloud.size(), options.threads, [&](int begin, int end) {
    for (int i = begin; i < end; ++i) {
      const Vec3 p = cloud.point(i);
      std::vector<CellLocation> candidates = locator.containingCells(p);
      if (candidates.empty()) {
        const std::optional<CellLocation> loc = locator.locate(p, options.maxOutside);
        if (!loc) continue;
        candidates.push_back(*loc);
      }
      // Overlapping deformed cells (folded empty parts of cut cells): the reading with
      // the smallest |phi| (ties: lowest cell id). Continuous while the candidate set
      // stays the same; it jumps where the set changes (see the header).
      PointSdf& ps = points[static_cast<size_t>(i)];
      for (const CellLocation& loc : candidates) {
        const GridCell& cell = grid.cells()[static_cast<size_t>(loc.cell)];
        Vec3 dphiDxi;
        const double phi = lattice.interpolateInCell(cell.index[0], cell.index[1], cell.index[2], loc.xi, &dphiDxi);
        if (ps.cell >= 0 && !(std::abs(phi) < std::abs(ps.phi))) continue;
        ps.cell = loc.cell;
        ps.phi = phi;
        ps.N = trilinearShapeValues(loc.xi);
        ps.dphiDx = loc.jacobian.transpose().inverse() * dphiDxi;  // 3x3: closed form
      }
    }
  });
  // Sequential accumulation in point order: bit-identical for any thread count.
  double cost = 0.0;
  for (const PointSdf& ps : points) {
    if (ps.cell < 0) {
      ++result.dropped;
      continue;
    }
    const double d = std::abs(ps.phi);
    cost += kernel.value(d);
    if (!gradient) continue;
    // d rho(|phi|) / d x_c = rho'(|phi|) sign(phi) dphi/dx_c, dphi/dx_c = -N_c J^-T dphi/dxi.
    const Vec3 g = -(weight * kernel.gradientScale(d) * ps.phi) * ps.dphiDx;
    const GridCell& cell = grid.cells()[static_cast<size_t>(ps.cell)];
    for (int c = 0; c < 8; ++c) gradient->segment<3>(3 * cell.nodes[static_cast<size_t>(c)]) += ps.N[c] * g;
  }
  result.value = weight * cost;
  return result;
}

}  // namespace softfit
