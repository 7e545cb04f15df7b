#pragma once
// Ground-contact points of a tet mesh: its boundary vertices, each standing for one
// third of the rest area of the boundary triangles around it (ContactPoint::area; the
// ground stiffness is per unit area, as for the grid's points in grid_contact_points.h),
// so the areas sum to the rest surface area. Sorted by node: deterministic.
#include <vector>

#include "forward/energies/ground_contact.h"

namespace softfit {

// rest: flat rest positions (3 per node); triangles: boundary faces (node indices).
std::vector<ContactPoint> surfaceVertexContactPoints(const VecX& rest, const TriangleMatrix& triangles);

}  // namespace softfit
