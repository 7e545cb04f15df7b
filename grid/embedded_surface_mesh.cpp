#include "grid/embedded_surface_mesh.h"

#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "forward/errors.h"
#include "grid/cut_cell_grid.h"

namespace softfit {

EmbeddedSurface embedSurfaceMesh(const CutCellGrid& grid, const TriangleSurface& surface) {
  std::vector<Eigen::Triplet<double, int>> weights;
  weights.reserve(8 * static_cast<size_t>(surface.vertexCount()));
  for (int v = 0; v < surface.vertexCount(); ++v) {
    const Vec3 X = surface.vertices.row(v).transpose();
    std::optional<EmbeddedPoint> p = grid.locate(X);
    if (!p) p = grid.locateNearest(X);
    if (!p) {
      char where[96];
      std::snprintf(where, sizeof(where), "(%g, %g, %g)", X[0], X[1], X[2]);
      throw InputError(surface.source + ": vertex " + std::to_string(v + 1) + " at " + where +
                       " is more than a cell away from the grid's object");
    }
    for (int a = 0; a < 8; ++a)
      if (p->weights[a] != 0.0) weights.emplace_back(v, p->nodes[a], p->weights[a]);
  }
  EmbeddedSurface s;
  s.weights.resize(surface.vertexCount(), grid.nodeCount());
  s.weights.setFromTriplets(weights.begin(), weights.end());
  s.triangles = surface.triangles;
  return s;
}

}  // namespace softfit
