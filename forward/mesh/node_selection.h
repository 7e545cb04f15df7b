#pragma once
// Selecting mesh nodes by position (for boundary conditions and attachments).
#include <vector>

#include "forward/mesh/tet_mesh.h"

namespace softfit {

// Indices (ascending) of the vertices inside the closed box [lo, hi], widened by a
// tolerance of 1e-9 times the mesh's bounding-box diagonal so nodes lying exactly on a
// face are kept despite round-off. Throws InputError (naming mesh.source)
// when lo > hi in some coordinate or a corner is not finite.
std::vector<int> nodesInBox(const TetMesh& mesh, const Vec3& lo, const Vec3& hi);

}  // namespace softfit
