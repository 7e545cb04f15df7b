#include "forward/mesh/surface_checks.h"

#include <algorithm>
#include <array>
#include <map>
#include <sstream>
#include <utility>
#include <vector>

#include "forward/errors.h"

namespace softfit {

TriangleSurface cleanSurface(const TriangleSurface& surface) {
  // Canonical index per distinct coordinate triple.
  std::map<std::array<double, 3>, int> firstWithCoords;
  std::vector<int> canonical(surface.vertexCount());
  for (int v = 0; v < surface.vertexCount(); ++v) {
    const std::array<double, 3> key = {surface.vertices(v, 0), surface.vertices(v, 1), surface.vertices(v, 2)};
    canonical[v] = firstWithCoords.emplace(key, v).first->second;
  }
  std::vector<int> newIndex(surface.vertexCount(), -1);
  std::vector<int> kept;  // old canonical vertex per new index
  std::vector<std::array<int, 3>> triangles;
  for (int t = 0; t < surface.triangleCount(); ++t) {
    std::array<int, 3> tri;
    for (int c = 0; c < 3; ++c) tri[c] = canonical[surface.triangles(t, c)];
    if (tri[0] == tri[1] || tri[1] == tri[2] || tri[0] == tri[2]) continue;
    for (int& v : tri) {
      if (newIndex[v] < 0) {
        newIndex[v] = static_cast<int>(kept.size());
        kept.push_back(v);
      }
      v = newIndex[v];
    }
    triangles.push_back(tri);
  }
  TriangleSurface out;
  out.source = surface.source;
  out.vertices.resize(static_cast<Eigen::Index>(kept.size()), 3);
  for (std::size_t i = 0; i < kept.size(); ++i) out.vertices.row(i) = surface.vertices.row(kept[i]);
  out.triangles.resize(static_cast<Eigen::Index>(triangles.size()), 3);
  for (std::size_t t = 0; t < triangles.size(); ++t)
    for (int c = 0; c < 3; ++c) out.triangles(t, c) = triangles[t][c];
  return out;
}

void checkClosedSurface(const TriangleSurface& surface) {
  if (surface.triangleCount() == 0) throw InputError(surface.source + ": surface has no triangles");
  std::map<std::pair<int, int>, int> edgeUse;
  for (int t = 0; t < surface.triangleCount(); ++t)
    for (int c = 0; c < 3; ++c) {
      const int a = surface.triangles(t, c);
      const int b = surface.triangles(t, (c + 1) % 3);
      ++edgeUse[{std::min(a, b), std::max(a, b)}];
    }
  int open = 0, nonManifold = 0;
  std::pair<int, int> firstOpen{-1, -1}, firstNonManifold{-1, -1};
  for (const auto& [edge, count] : edgeUse) {
    if (count == 1 && open++ == 0) firstOpen = edge;
    if (count > 2 && nonManifold++ == 0) firstNonManifold = edge;
  }
  if (open == 0 && nonManifold == 0) return;
  const auto point = [&](int v) {
    std::ostringstream s;
    s << "(" << surface.vertices(v, 0) << ", " << surface.vertices(v, 1) << ", " << surface.vertices(v, 2) << ")";
    return s.str();
  };
  std::ostringstream s;
  s << surface.source << ": surface is not a closed manifold, cannot tetrahedralize it:";
  if (open > 0)
    s << " " << open << " boundary edge(s) used by only one triangle (holes), e.g. the edge from "
      << point(firstOpen.first) << " to " << point(firstOpen.second);
  if (open > 0 && nonManifold > 0) s << ";";
  if (nonManifold > 0)
    s << " " << nonManifold << " edge(s) shared by more than two triangles, e.g. the edge from "
      << point(firstNonManifold.first) << " to " << point(firstNonManifold.second);
  throw InputError(s.str());
}

}  // namespace softfit
