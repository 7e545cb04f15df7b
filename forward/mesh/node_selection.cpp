#include "forward/mesh/node_selection.h"

#include <algorithm>
#include <sstream>

#include "forward/errors.h"

namespace softfit {

std::vector<int> nodesInBox(const TetMesh& mesh, const Vec3& lo, const Vec3& hi) {
  if (!lo.allFinite() || !hi.allFinite() || !(lo.array() <= hi.array()).all()) {
    std::ostringstream s;
    s << mesh.source << ": node selection box has lower corner (" << lo.transpose() << ") not below upper corner ("
      << hi.transpose() << ")";
    throw InputError(s.str());
  }
  // Tolerance relative to the mesh size only: a huge selection box (e.g. "everything
  // below x = 0") must not widen it.
  double scale = 1.0;
  if (mesh.vertexCount() > 0)
    scale = (mesh.vertices.colwise().maxCoeff() - mesh.vertices.colwise().minCoeff()).norm();
  const double tol = 1e-9 * scale;
  const Vec3 a = lo.array() - tol;
  const Vec3 b = hi.array() + tol;
  std::vector<int> selected;
  for (int v = 0; v < mesh.vertexCount(); ++v) {
    const Vec3 x = mesh.vertices.row(v).transpose();
    if ((x.array() >= a.array()).all() && (x.array() <= b.array()).all()) selected.push_back(v);
  }
  return selected;
}

}  // namespace softfit
