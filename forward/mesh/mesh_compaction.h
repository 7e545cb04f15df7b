#pragma once
// Dropping vertices that no tet uses (e.g. bounding-box corners left in some files):
// such vertices have no mass or stiffness and would make the simulation singular.
#include <vector>

#include "forward/mesh/tet_mesh.h"

namespace softfit {

// Copy of `mesh` without unreferenced vertices; the kept vertices keep their relative
// order. If `oldToNew` is given it receives, per old vertex, its new index or -1.
TetMesh removeUnreferencedVertices(const TetMesh& mesh, std::vector<int>* oldToNew = nullptr);

}  // namespace softfit
