#pragma once
// A given triangle surface (e.g. the fused rest surface `softfit reconstruct` writes)
// embedded in a cut-cell grid: each vertex follows the displacement field of the active
// cell that contains it (trilinear weights). The grid's own surfaces are marching tets on
// the SDF's samples, which bevel sharp edges by up to half a sample spacing (a
// reconstructed box at 37.5 mm cells, refinement 3: 4-7 mm at its edges); a finer mesh
// keeps the shape its SDF came from while the simulation stays on the coarse grid.
#include "forward/mesh/triangle_surface.h"
#include "grid/embedded_surface.h"

namespace softfit {

// A vertex outside every active cell (the surface and the sampled SDF disagree near thin
// parts) takes the trilinear weights of the nearest active cell, extrapolated; one more
// than a cell away from all of them is an InputError naming surface.source and the vertex.
// Triangles are kept as given (they must be outward, as for the grid's own surfaces).
EmbeddedSurface embedSurfaceMesh(const CutCellGrid& grid, const TriangleSurface& surface);

}  // namespace softfit
