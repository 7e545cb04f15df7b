#pragma once
// The active part of an SDF lattice: active cells (cells that intersect the inside: a
// sample phi < 0, a corner as in the thesis or a refined sub-lattice sample, so the
// piecewise-linear inside region has positive volume), active nodes (corners of active
// cells) numbered in lattice order, and the softfit Elements of the cells:
// trilinear 8-node hexes with quadrature over the inside region only
// (cut_cell_quadrature.h), so lumped mass, gravity and elastic energy all integrate the
// object, not the cell.
#include <array>
#include <optional>
#include <vector>

#include "forward/element.h"
#include "grid/cut_cell_quadrature.h"
#include "grid/sdf_lattice.h"

namespace softfit {

struct GridCell {
  Eigen::Vector3i index;          // lattice coordinates of its lower corner node
  std::array<int, 8> nodes{};     // grid node ids in VTK hexahedron order
  double volumeFraction = 0.0;    // inside volume / h^3 (1 for full cells)
  bool cut = false;               // partial cell (some corner phi > 0)
  bool partial() const { return cut; }
};

// A point inside an active cell as a trilinear combination of the cell's nodes.
struct EmbeddedPoint {
  int cell = -1;
  std::array<int, 8> nodes{};
  std::array<double, 8> weights{};  // trilinear shape values, sum to 1
};

class CutCellGrid {
 public:
  // InputError naming lattice.source() when no sample lies inside (phi < 0).
  explicit CutCellGrid(SdfLattice lattice);

  const SdfLattice& lattice() const { return lattice_; }
  double cellSize() const { return lattice_.cellSize(); }
  int nodeCount() const { return static_cast<int>(latticeNodes_.size()); }
  int cellCount() const { return static_cast<int>(cells_.size()); }
  int partialCellCount() const;
  const std::vector<GridCell>& cells() const { return cells_; }
  // Flat rest positions (3 * nodeCount) of the active nodes.
  const VecX& restPositions() const { return rest_; }
  long long latticeNodeOf(int node) const { return latticeNodes_[node]; }
  // Grid node id of a lattice node, -1 when it is not active.
  int nodeOfLatticeNode(long long latticeNode) const { return nodeOfLattice_[static_cast<size_t>(latticeNode)]; }
  // Integer lattice coordinates of every active node (PhysicalModel::nodeLattice).
  std::vector<Eigen::Vector3i> nodeLatticeCoordinates() const;
  // Reference SDF value (snapped node value) of a grid node.
  double nodePhi(int node) const { return lattice_.phi(latticeNodes_[node]); }
  // Cell id of the active cell with lower corner (i, j, k), -1 when inactive.
  int cellAt(int i, int j, int k) const;
  // Sum of the cells' inside volumes.
  double insideVolume() const;
  // The active cell containing rest point X with its trilinear weights (points on cell
  // faces go to any active cell sharing the face); nullopt outside every active cell.
  std::optional<EmbeddedPoint> locate(const Vec3& X) const;
  // The active cell nearest to X among the lattice cells within one cell of the one
  // containing it (distance from X to the cell's box; the first of equals in lattice
  // order), with its trilinear weights extrapolated to X; nullopt when there is none.
  std::optional<EmbeddedPoint> locateNearest(const Vec3& X) const;

 private:
  // X in lattice cell units from the lattice's lower corner.
  Vec3 latticeCoordinates(const Vec3& X) const;
  // Active cell `cell` with the trilinear weights at local coordinates xi.
  EmbeddedPoint embed(int cell, const Vec3& xi) const;

  SdfLattice lattice_;
  std::vector<GridCell> cells_;
  std::vector<int> cellOfLatticeCell_;
  std::vector<long long> latticeNodes_;
  std::vector<int> nodeOfLattice_;
  VecX rest_;
};

// One Element per active cell (same order as grid.cells()): 8 nodes, quadrature points
// with weight = fraction * h^3, N = trilinear shape values and dN/dX = dN/dxi / h;
// partial cells get the volume-fraction floor options.minCellFraction
// (floorCellFraction, cut_cell_quadrature.h).
std::vector<Element> buildCutCellElements(const CutCellGrid& grid, const CutCellQuadratureOptions& options = {});

// The element of a single cell of size h with corner values phi (or refined samples) at
// the given nodes.
Element makeCutCellElement(const std::array<int, 8>& nodes, const std::array<double, 8>& phi, double h,
                           const CutCellQuadratureOptions& options = {});
Element makeCutCellElement(const std::array<int, 8>& nodes, const CellSamples& samples, double h,
                           const CutCellQuadratureOptions& options = {});

}  // namespace softfit
