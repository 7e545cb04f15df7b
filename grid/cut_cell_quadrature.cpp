#include "grid/cut_cell_quadrature.h"

#include <cmath>

#include "grid/kuhn_clipping.h"

namespace softfit {

CellCoverage classifyCell(const std::array<double, 8>& phi) {
  bool anyInside = false, allInside = true;
  for (double v : phi) {
    anyInside = anyInside || v < 0.0;
    allInside = allInside && v <= 0.0;
  }
  if (!anyInside) return CellCoverage::Empty;
  return allInside ? CellCoverage::Full : CellCoverage::Partial;
}

std::vector<LocalQuadraturePoint> fullCellQuadrature() {
  const double g = 0.5 / std::sqrt(3.0);
  std::vector<LocalQuadraturePoint> points;
  points.reserve(8);
  for (int k = 0; k < 2; ++k)
    for (int j = 0; j < 2; ++j)
      for (int i = 0; i < 2; ++i)
        points.push_back({Vec3(0.5 + (i ? g : -g), 0.5 + (j ? g : -g), 0.5 + (k ? g : -g)), 0.125});
  return points;
}

std::vector<LocalQuadraturePoint> cellQuadrature(const std::array<double, 8>& phi,
                                                 const CutCellQuadratureOptions& options) {
  switch (classifyCell(phi)) {
    case CellCoverage::Empty: return {};
    case CellCoverage::Full: return fullCellQuadrature();
    case CellCoverage::Partial: break;
  }
  // Degree-2 rule with barycentric coordinates (a, b, b, b) and permutations.
  const double a = 0.5854101966249685, b = 0.1381966011250105;
  std::vector<LocalQuadraturePoint> points;
  for (const LocalTet& t : clipCellInside(phi)) {
    const double volume = t.volume();
    const auto& v = t.vertices;
    if (options.rule == SubTetRule::Centroid) {
      points.push_back({(v[0] + v[1] + v[2] + v[3]) / 4.0, volume});
      continue;
    }
    for (int i = 0; i < 4; ++i) {
      Vec3 p = Vec3::Zero();
      for (int j = 0; j < 4; ++j) p += (i == j ? a : b) * v[j];
      points.push_back({p, volume / 4.0});
    }
  }
  return points;
}

double insideVolumeFraction(const std::array<double, 8>& phi) {
  switch (classifyCell(phi)) {
    case CellCoverage::Empty: return 0.0;
    case CellCoverage::Full: return 1.0;
    case CellCoverage::Partial: break;
  }
  double volume = 0.0;
  for (const LocalTet& t : clipCellInside(phi)) volume += t.volume();
  return volume;
}

}  // namespace softfit
