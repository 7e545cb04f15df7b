#pragma once
// Reading a tet mesh from any supported file, chosen by extension.
#include <string>

#include "forward/mesh/surface_tetrahedralizer.h"
#include "forward/mesh/tet_mesh.h"

namespace softfit {

// .mesh -> readMeditMesh, .msh -> readGmshMesh, .node/.ele -> readTetgenMesh,
// .obj -> readObjSurface + tetrahedralizeSurface, .stl -> readStlSurface +
// tetrahedralizeSurface (extensions are case-insensitive). Vertices that no tet uses are
// removed (removeUnreferencedVertices), so every vertex has mass; the result is
// validated and has .source = path. Throws InputError naming the file for an unknown
// extension and for every reader error.
TetMesh readTetMesh(const std::string& path, const SurfaceMeshingOptions& options = {});

}  // namespace softfit
