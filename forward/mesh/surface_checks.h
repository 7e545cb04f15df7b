#pragma once
// Clean-up and topology checks of triangle surfaces before tetrahedralization.
#include "forward/mesh/triangle_surface.h"

namespace softfit {

// Merges vertices with bit-identical coordinates, drops triangles that repeat a vertex
// (after merging) and vertices no triangle uses. Keeps the order of first use.
TriangleSurface cleanSurface(const TriangleSurface& surface);

// Throws InputError naming surface.source unless the surface is a closed 2-manifold:
// every edge shared by exactly two triangles (an edge used once is a hole, more than
// twice is non-manifold). The message gives the count and one offending edge's end points.
void checkClosedSurface(const TriangleSurface& surface);

}  // namespace softfit
