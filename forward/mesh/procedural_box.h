#pragma once
// Structured tet mesh of an axis-aligned box.
#include <string>

#include "forward/mesh/tet_mesh.h"

namespace softfit {

// nx * ny * nz cubic cells between minCorner and maxCorner, each split into 6 positively
// oriented tets sharing the cell's main diagonal (Kuhn/Freudenthal split), so faces of
// neighbouring cells conform. Node (i, j, k) has index i + (nx+1) * (j + (ny+1) * k).
// Throws InputError when a count is < 1 or minCorner is not strictly below maxCorner.
// Throws InputError "<field>: ..." when nx * ny * nz cells need more tets or nodes than
// an int indexes, or more memory than the machine has (an estimate per tet of what a
// simulation stores). makeBoxMesh checks this first; loaders call it to name their field.
void checkBoxMeshSize(long long nx, long long ny, long long nz, const std::string& field);
TetMesh makeBoxMesh(const Vec3& minCorner, const Vec3& maxCorner, int nx, int ny, int nz);

}  // namespace softfit
