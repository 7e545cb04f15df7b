#pragma once
// Exact inside region of a cell under the piecewise-linear interpolant of phi on its 6
// Kuhn tets ("marching tets" clipping): each tet clipped by its linear phi is a convex
// polyhedron (empty, a tet, a prism or the tet minus a corner), returned as sub-tets.
#include <array>
#include <vector>

#include "forward/types.h"

namespace softfit {

struct LocalTet {
  std::array<Vec3, 4> vertices;  // unit-cell coordinates
  double volume() const;         // unsigned
};

// Appends the sub-tets of {x in tet : phi_lin(x) <= 0} for tet corners p and values phi.
// Vertices with phi <= 0 are inside (a tet whose corners are all 0 is inside: e.g. the
// corner tets along an edge of a box whose faces lie on grid nodes). Sub-tets of zero
// volume are dropped.
void clipTetInside(const std::array<Vec3, 4>& p, const std::array<double, 4>& phi, std::vector<LocalTet>& out);

// The inside region of the unit cell for corner values phi (VTK corner order, see
// trilinear_hex.h), as sub-tets in unit-cell coordinates. Their volumes sum to the
// exact volume of {phi_lin <= 0} in the cell.
std::vector<LocalTet> clipCellInside(const std::array<double, 8>& phi);

}  // namespace softfit
