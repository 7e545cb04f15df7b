#pragma once
// Finds, for a world point p, the deformed cut-cell grid cell that contains it and the
// point's reference (unit-cell) coordinates xi, by inverting the cell's trilinear map
// x(xi) = sum_c N_c(xi) x_c with Newton's method (thesis 5.4.3). Cells are binned by their
// deformed bounding boxes on a uniform grid of the cell size, so a query tests only the
// cells whose boxes overlap the point's bin. Cells whose boxes span more than
// kLargeCellBins bins along an axis are kept apart and tested (box first) by every
// query: a nearly empty cut cell's node may swing metres away while the material stays
// put (the thesis bunny), and binning its box would coarsen the bins over the body
// until one bin held every cell.
#include <optional>
#include <vector>

#include "forward/types.h"
#include "grid/cut_cell_grid.h"

namespace softfit {

struct CellLocation {
  int cell = -1;
  Vec3 xi = Vec3::Zero();   // unit-cell coordinates; outside [0,1]^3 when extrapolated
  Mat3 jacobian = Mat3::Zero();  // dx/dxi of the deformed cell at xi
  double outside = 0.0;     // distance of xi from [0,1]^3 (0 = inside)
};

// Inverts the trilinear map of a deformed cell with corner positions `corners` (VTK hex
// order) for p: Newton from the cell centre, at most 30 iterations, stopping when the
// residual is below 1e-12 times the cell's size. nullopt when the map is singular or
// Newton does not converge (an inverted or degenerate deformed cell).
std::optional<CellLocation> invertTrilinearMap(const Eigen::Matrix<double, 8, 3>& corners, const Vec3& p);

class DeformedCellLocator {
 public:
  // Bins the grid's cells at node positions x (3 * nodeCount; copied).
  DeformedCellLocator(const CutCellGrid& grid, const VecX& x);

  // The cell containing p (xi within [0,1]^3 up to 1e-9; the lowest cell id when p lies on
  // a shared face). Otherwise, when `maxOutside` > 0, the nearby cell (bins within one bin
  // of p's) whose inverse map puts p closest to its unit cube (Euclidean distance in xi,
  // so a point beyond a face goes to the cell of that face, not to its neighbours), if
  // that is at most maxOutside (trilinear extrapolation: points measured just outside
  // the object's cells). nullopt when no cell qualifies.
  std::optional<CellLocation> locate(const Vec3& p, double maxOutside = 0.0) const;
  // Every cell containing p (ascending id). More than one where deformed cells overlap:
  // the empty (outside-the-object) parts of cut cells carry no material and can fold
  // over their neighbours under large deformation.
  std::vector<CellLocation> containingCells(const Vec3& p) const;

  Eigen::Matrix<double, 8, 3> cellCorners(int cell) const;

 private:
  long long binOf(const Eigen::Vector3i& b) const {
    return b[0] + static_cast<long long>(dims_[0]) * (b[1] + static_cast<long long>(dims_[1]) * b[2]);
  }
  Eigen::Vector3i binCoordinates(const Vec3& p) const;

  const CutCellGrid& grid_;
  VecX x_;
  Vec3 origin_ = Vec3::Zero();
  double binSize_ = 1.0;
  Eigen::Vector3i dims_ = Eigen::Vector3i::Ones();
  std::vector<int> binStart_;  // CSR: cells of bin b are binCells_[binStart_[b] .. binStart_[b+1])
  std::vector<int> binCells_;  // ascending cell ids within a bin
  std::vector<int> largeCells_;  // ascending ids of the cells not binned (boxes too large)
  std::vector<Vec3> boxLo_, boxHi_;  // each cell's deformed bounding box
};

}  // namespace softfit
