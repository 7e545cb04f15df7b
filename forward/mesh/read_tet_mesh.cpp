#include "forward/mesh/read_tet_mesh.h"

#include <algorithm>
#include <cctype>
#include <filesystem>

#include "forward/errors.h"
#include "forward/mesh/gmsh_reader.h"
#include "forward/mesh/medit_reader.h"
#include "forward/mesh/mesh_compaction.h"
#include "forward/mesh/obj_surface_reader.h"
#include "forward/mesh/stl_surface_reader.h"
#include "forward/mesh/tetgen_reader.h"

namespace softfit {

namespace {

TetMesh readByExtension(const std::string& path, const SurfaceMeshingOptions& options) {
  std::string ext = std::filesystem::path(path).extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (ext == ".mesh") return readMeditMesh(path);
  if (ext == ".msh") return readGmshMesh(path);
  if (ext == ".node" || ext == ".ele") return readTetgenMesh(path);
  if (ext == ".obj") return tetrahedralizeSurface(readObjSurface(path), options);
  if (ext == ".stl") return tetrahedralizeSurface(readStlSurface(path), options);
  throw InputError(path + ": unknown mesh file extension '" + ext +
                   "' (supported: .mesh, .msh, .node, .ele, .obj, .stl)");
}

}  // namespace

TetMesh readTetMesh(const std::string& path, const SurfaceMeshingOptions& options) {
  TetMesh mesh = removeUnreferencedVertices(readByExtension(path, options));
  mesh.source = path;
  validateTetMesh(mesh);
  return mesh;
}

}  // namespace softfit
