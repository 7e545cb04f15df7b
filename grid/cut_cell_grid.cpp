#include "grid/cut_cell_grid.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

#include "forward/errors.h"
#include "grid/trilinear_hex.h"

namespace softfit {

CutCellGrid::CutCellGrid(SdfLattice lattice) : lattice_(std::move(lattice)) {
  const Eigen::Vector3i cd = lattice_.cellDims();
  const long long latticeCells = static_cast<long long>(cd[0]) * cd[1] * cd[2];
  cellOfLatticeCell_.assign(static_cast<size_t>(latticeCells), -1);
  nodeOfLattice_.assign(static_cast<size_t>(lattice_.nodeCount()), -1);

  // Active cells in lattice order; mark their corners.
  std::vector<char> activeNode(static_cast<size_t>(lattice_.nodeCount()), 0);
  long long cellId = 0;
  for (int k = 0; k < cd[2]; ++k)
    for (int j = 0; j < cd[1]; ++j)
      for (int i = 0; i < cd[0]; ++i, ++cellId) {
        // Active: the cell intersects the inside, i.e. one of its samples (a corner, as
        // in the thesis, or a refined sub-lattice sample) has phi < 0.
        const CellSamples samples = lattice_.cellSamples(i, j, k);
        const CellCoverage coverage = classifyCell(samples);
        if (coverage == CellCoverage::Empty) continue;
        GridCell cell;
        cell.cut = coverage == CellCoverage::Partial;
        cell.index = Eigen::Vector3i(i, j, k);
        cell.volumeFraction = cell.cut ? insideVolumeFraction(samples) : 1.0;
        cellOfLatticeCell_[static_cast<size_t>(cellId)] = static_cast<int>(cells_.size());
        cells_.push_back(cell);
        for (int c = 0; c < 8; ++c)
          activeNode[static_cast<size_t>(lattice_.node(i + kHexCorner[c][0], j + kHexCorner[c][1], k + kHexCorner[c][2]))] = 1;
      }
  if (cells_.empty()) {
    std::ostringstream s;
    s << lattice_.source() << ": the SDF has no inside point on the grid (no sample with phi < 0 at cell_size "
      << lattice_.cellSize() << "); the object is empty or thinner than the cell size";
    throw InputError(s.str());
  }
  for (long long n = 0; n < lattice_.nodeCount(); ++n) {
    if (!activeNode[static_cast<size_t>(n)]) continue;
    nodeOfLattice_[static_cast<size_t>(n)] = static_cast<int>(latticeNodes_.size());
    latticeNodes_.push_back(n);
  }
  rest_.resize(3 * static_cast<Eigen::Index>(latticeNodes_.size()));
  for (size_t a = 0; a < latticeNodes_.size(); ++a) {
    const Eigen::Vector3i ijk = lattice_.nodeCoordinates(latticeNodes_[a]);
    rest_.segment<3>(3 * static_cast<Eigen::Index>(a)) = lattice_.position(ijk[0], ijk[1], ijk[2]);
  }
  for (GridCell& cell : cells_)
    for (int c = 0; c < 8; ++c)
      cell.nodes[c] = nodeOfLattice_[static_cast<size_t>(lattice_.node(
          cell.index[0] + kHexCorner[c][0], cell.index[1] + kHexCorner[c][1], cell.index[2] + kHexCorner[c][2]))];
}

int CutCellGrid::partialCellCount() const {
  return static_cast<int>(std::count_if(cells_.begin(), cells_.end(), [](const GridCell& c) { return c.partial(); }));
}

int CutCellGrid::cellAt(int i, int j, int k) const {
  const Eigen::Vector3i cd = lattice_.cellDims();
  if (i < 0 || j < 0 || k < 0 || i >= cd[0] || j >= cd[1] || k >= cd[2]) return -1;
  return cellOfLatticeCell_[static_cast<size_t>(i + static_cast<long long>(cd[0]) * (j + static_cast<long long>(cd[1]) * k))];
}

double CutCellGrid::insideVolume() const {
  double fraction = 0.0;
  for (const GridCell& c : cells_) fraction += c.volumeFraction;
  const double h = cellSize();
  return fraction * h * h * h;
}

Vec3 CutCellGrid::latticeCoordinates(const Vec3& X) const {
  return X / cellSize() - lattice_.lower().cast<double>();
}

EmbeddedPoint CutCellGrid::embed(int cell, const Vec3& xi) const {
  EmbeddedPoint p;
  p.cell = cell;
  p.nodes = cells_[cell].nodes;
  const HexShapeValues N = trilinearShapeValues(xi);
  for (int c = 0; c < 8; ++c) p.weights[c] = N[c];
  return p;
}

std::optional<EmbeddedPoint> CutCellGrid::locate(const Vec3& X) const {
  const Eigen::Vector3i cd = lattice_.cellDims();
  const Vec3 u = latticeCoordinates(X);
  if (!u.allFinite()) return std::nullopt;
  const Eigen::Vector3i base = u.array().floor().cast<int>();
  // The containing cell, or for points on faces / edges the first active neighbour.
  for (int dk = 0; dk <= 1; ++dk)
    for (int dj = 0; dj <= 1; ++dj)
      for (int di = 0; di <= 1; ++di) {
        const int i = base[0] - di, j = base[1] - dj, k = base[2] - dk;
        if (i < 0 || j < 0 || k < 0 || i >= cd[0] || j >= cd[1] || k >= cd[2]) continue;
        const Vec3 xi = u - Vec3(i, j, k);
        if ((xi.array() < 0.0).any() || (xi.array() > 1.0).any()) continue;
        const int cell = cellAt(i, j, k);
        if (cell >= 0) return embed(cell, xi);
      }
  return std::nullopt;
}

std::optional<EmbeddedPoint> CutCellGrid::locateNearest(const Vec3& X) const {
  const Eigen::Vector3i cd = lattice_.cellDims();
  const Vec3 u = latticeCoordinates(X);
  if (!u.allFinite()) return std::nullopt;
  const Eigen::Vector3i base = u.array().floor().cast<int>();
  std::optional<EmbeddedPoint> best;
  double bestDistance = std::numeric_limits<double>::infinity();
  for (int dk = -1; dk <= 1; ++dk)
    for (int dj = -1; dj <= 1; ++dj)
      for (int di = -1; di <= 1; ++di) {
        const Eigen::Vector3i c = base + Eigen::Vector3i(di, dj, dk);
        if ((c.array() < 0).any() || (c.array() >= cd.array()).any()) continue;
        const int cell = cellAt(c[0], c[1], c[2]);
        if (cell < 0) continue;
        const Vec3 xi = u - c.cast<double>();
        const double distance = (xi.array() - xi.array().min(1.0).max(0.0)).matrix().norm();
        if (distance >= bestDistance) continue;  // the first of equals: lattice order
        bestDistance = distance;
        best = embed(cell, xi);
      }
  return best;
}

Element makeCutCellElement(const std::array<int, 8>& nodes, const std::array<double, 8>& phi, double h,
                           const CutCellQuadratureOptions& options) {
  return makeCutCellElement(nodes, CellSamples::fromCorners(phi), h, options);
}

Element makeCutCellElement(const std::array<int, 8>& nodes, const CellSamples& samples, double h,
                           const CutCellQuadratureOptions& options) {
  Element e;
  e.nodes.assign(nodes.begin(), nodes.end());
  const double cellVolume = h * h * h;
  std::vector<LocalQuadraturePoint> rule = cellQuadrature(samples, options);
  floorCellFraction(rule, options.minCellFraction);
  for (const LocalQuadraturePoint& p : rule) {
    QuadraturePoint q;
    q.weight = p.weight * cellVolume;
    q.N = trilinearShapeValues(p.position);
    q.dNdX = trilinearShapeGradients(p.position) / h;
    e.quadrature.push_back(std::move(q));
  }
  return e;
}

std::vector<Element> buildCutCellElements(const CutCellGrid& grid, const CutCellQuadratureOptions& options) {
  std::vector<Element> elements;
  elements.reserve(grid.cells().size());
  const double h = grid.cellSize();
  // Full cells all share one rule: build it once.
  std::vector<QuadraturePoint> full;
  for (const LocalQuadraturePoint& p : fullCellQuadrature()) {
    QuadraturePoint q;
    q.weight = p.weight * h * h * h;
    q.N = trilinearShapeValues(p.position);
    q.dNdX = trilinearShapeGradients(p.position) / h;
    full.push_back(std::move(q));
  }
  for (const GridCell& cell : grid.cells()) {
    if (!cell.partial()) {
      Element e;
      e.nodes.assign(cell.nodes.begin(), cell.nodes.end());
      e.quadrature = full;
      elements.push_back(std::move(e));
      continue;
    }
    elements.push_back(makeCutCellElement(
        cell.nodes, grid.lattice().cellSamples(cell.index[0], cell.index[1], cell.index[2]), h, options));
  }
  return elements;
}

std::vector<Eigen::Vector3i> CutCellGrid::nodeLatticeCoordinates() const {
  std::vector<Eigen::Vector3i> coordinates(latticeNodes_.size());
  for (size_t i = 0; i < latticeNodes_.size(); ++i) coordinates[i] = lattice_.nodeCoordinates(latticeNodes_[i]);
  return coordinates;
}

}  // namespace softfit
