#pragma once
// Ground-contact points of a cut-cell grid (thesis): the zero crossings of the reference
// SDF on the lattice edges of active cells (with refined cells: of the piecewise-linear
// samples along the edge), each split (1 - s, s) onto the edge's two nodes, plus the
// active nodes whose (snapped) phi is exactly 0, which lie on the surface themselves. Both nodes of an edge belong to every cell sharing the edge, so
// the points fit the elements' sparsity pattern.
#include <vector>

#include "forward/energies/ground_contact.h"
#include "grid/cut_cell_grid.h"

namespace softfit {

// In lattice order (node, then its +x, +y, +z edges): deterministic.
std::vector<ContactPoint> edgeCrossingContactPoints(const CutCellGrid& grid);

}  // namespace softfit
