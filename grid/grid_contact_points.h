#pragma once
// Ground-contact points. Scenes (grid) use edgeCrossingContactPoints, the thesis' point
// set with areas; surfaceContactPoints puts them on an embedded surface's vertices.
//
// Thesis points of a cut-cell grid: the zero crossings of the reference
// SDF on the lattice edges of active cells (with refined cells: of the piecewise-linear
// samples along the edge), each split (1 - s, s) onto the edge's two nodes, plus the
// active nodes whose (snapped) phi is exactly 0, which lie on the surface themselves. Both nodes of an edge belong to every cell sharing the edge, so
// the points fit the elements' sparsity pattern.
//
// Each point's area (ContactPoint::area, the ground stiffness is per unit area) is its
// share of the rest surface: every lattice cell's area of {phi_lin = 0} (marching tets
// on its samples, the surface extractEmbeddedSurface builds) split equally among the
// contact points on the cell's 8 corners and 12 edges. The areas sum to the surface
// area except for cells the surface crosses without a contact point on their edges (a
// bump inside a refined cell), whose area is dropped.
#include <vector>

#include "forward/energies/ground_contact.h"
#include "grid/cut_cell_grid.h"
#include "grid/embedded_surface.h"

namespace softfit {

// In lattice order (node, then its +x, +y, +z edges): deterministic.
std::vector<ContactPoint> edgeCrossingContactPoints(const CutCellGrid& grid);

// The vertices of an embedded surface (a tet mesh's boundary faces with the identity
// embedding, or a grid's marching-tets surface, extractEmbeddedSurface: each vertex
// p = sum_a W(v, a) x_a over the nodes of one cell), each with one third of the rest area
// of its triangles; vertices on no triangle are left out. The areas sum to the surface
// area. On a grid's Samples surface the points are refinement times denser than the
// lattice edges, so the ground's push on a face resting on the floor hardly depends on
// where the face falls on the lattice (the lattice-edge points leave the discretized
// bottom face a chamfer one cell wide; tests/grid/grid_contact_points_test.cpp).
std::vector<ContactPoint> surfaceContactPoints(const EmbeddedSurface& surface, const VecX& rest);

// Area of {phi_lin = 0} in the unit cell for its samples (piecewise linear on the Kuhn
// tets of the sub-cells), in unit-cell units (times h^2 for world units). A zero face
// counts once, from the side where phi > 0. Exposed for tests.
double cellSurfaceArea(const CellSamples& samples);

}  // namespace softfit
