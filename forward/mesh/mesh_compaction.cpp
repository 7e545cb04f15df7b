#include "forward/mesh/mesh_compaction.h"

namespace softfit {

TetMesh removeUnreferencedVertices(const TetMesh& mesh, std::vector<int>* oldToNew) {
  std::vector<int> map(mesh.vertexCount(), -1);
  for (int t = 0; t < mesh.tetCount(); ++t)
    for (int a = 0; a < 4; ++a) {
      const int v = mesh.tets(t, a);
      if (v >= 0 && v < mesh.vertexCount()) map[v] = 0;
    }
  int kept = 0;
  for (int& m : map)
    if (m == 0) m = kept++;
  TetMesh out;
  out.source = mesh.source;
  out.vertices.resize(kept, 3);
  for (int v = 0; v < mesh.vertexCount(); ++v)
    if (map[v] >= 0) out.vertices.row(map[v]) = mesh.vertices.row(v);
  out.tets.resize(mesh.tetCount(), 4);
  for (int t = 0; t < mesh.tetCount(); ++t)
    for (int a = 0; a < 4; ++a) {
      const int v = mesh.tets(t, a);
      out.tets(t, a) = (v >= 0 && v < mesh.vertexCount()) ? map[v] : -1;  // stays invalid
    }
  if (oldToNew) *oldToNew = std::move(map);
  return out;
}

}  // namespace softfit
