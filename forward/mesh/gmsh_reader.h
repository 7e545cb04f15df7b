#pragma once
// Reader for Gmsh .msh files, ASCII format versions 2.x (2.2) and 4.1.
#include <string>

#include "forward/mesh/tet_mesh.h"

namespace softfit {

// Keeps all nodes in file order (node tags are mapped to 0-based indices) and all 4-node
// tetrahedra (element type 4); other element types and sections are ignored. Returns the
// mesh with .source = path. Throws InputError "<path>:<line>: ..." for a missing file,
// binary or unsupported versions (e.g. 4.0, 3.x), malformed or truncated sections,
// unknown or duplicate node tags, and (via validateTetMesh) inverted or degenerate tets.
TetMesh readGmshMesh(const std::string& path);

}  // namespace softfit
