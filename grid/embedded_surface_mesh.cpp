#include "grid/embedded_surface_mesh.h"

#include <cmath>
#include <cstdio>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "forward/errors.h"
#include "grid/cut_cell_grid.h"
#include "grid/trilinear_hex.h"

namespace softfit {

namespace {

// The active cell nearest to X among the lattice cells within one cell of the one
// containing it (distance from X to the cell's box), with its extrapolated weights.
std::optional<EmbeddedPoint> nearestCell(const CutCellGrid& grid, const Vec3& X) {
  const double h = grid.cellSize();
  const Eigen::Vector3i dims = grid.lattice().cellDims();
  const Vec3 u = X / h - grid.lattice().lower().cast<double>();
  const Eigen::Vector3i base(static_cast<int>(std::floor(u[0])), static_cast<int>(std::floor(u[1])),
                             static_cast<int>(std::floor(u[2])));
  std::optional<EmbeddedPoint> best;
  double bestDistance = std::numeric_limits<double>::infinity();
  for (int dk = -1; dk <= 1; ++dk)
    for (int dj = -1; dj <= 1; ++dj)
      for (int di = -1; di <= 1; ++di) {
        const Eigen::Vector3i c = base + Eigen::Vector3i(di, dj, dk);
        if ((c.array() < 0).any() || (c.array() >= dims.array()).any()) continue;
        const int cell = grid.cellAt(c[0], c[1], c[2]);
        if (cell < 0) continue;
        const Vec3 xi = u - c.cast<double>();
        const double distance = (xi.array() - xi.array().min(1.0).max(0.0)).matrix().norm();
        if (distance >= bestDistance) continue;  // the first of equals: lattice order
        bestDistance = distance;
        EmbeddedPoint p;
        p.cell = cell;
        p.nodes = grid.cells()[cell].nodes;
        const HexShapeValues N = trilinearShapeValues(xi);
        for (int a = 0; a < 8; ++a) p.weights[a] = N[a];
        best = p;
      }
  return best;
}

}  // namespace

EmbeddedSurface embedSurfaceMesh(const CutCellGrid& grid, const TriangleSurface& surface) {
  std::vector<Eigen::Triplet<double, int>> weights;
  weights.reserve(8 * static_cast<size_t>(surface.vertexCount()));
  for (int v = 0; v < surface.vertexCount(); ++v) {
    const Vec3 X = surface.vertices.row(v).transpose();
    std::optional<EmbeddedPoint> p = grid.locate(X);
    if (!p) p = nearestCell(grid, X);
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
