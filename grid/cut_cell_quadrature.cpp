#include "grid/cut_cell_quadrature.h"

#include <cmath>

#include "grid/kuhn_clipping.h"
#include "grid/quadrature_compression.h"
#include "grid/trilinear_hex.h"

namespace softfit {

namespace {

CellCoverage classifyValues(const double* values, size_t count) {
  bool anyInside = false, allInside = true;
  for (size_t i = 0; i < count; ++i) {
    anyInside = anyInside || values[i] < 0.0;
    allInside = allInside && values[i] <= 0.0;
  }
  if (!anyInside) return CellCoverage::Empty;
  return allInside ? CellCoverage::Full : CellCoverage::Partial;
}

// Appends the rule of one (sub-)cell with corner values phi, mapped into the cell by
// x = (offset + local) * scale with weights times scale^3.
void appendSubCellRule(const std::array<double, 8>& phi, const Vec3& offset, double scale, SubTetRule rule,
                       std::vector<LocalQuadraturePoint>& points) {
  const double volumeScale = scale * scale * scale;
  switch (classifyValues(phi.data(), 8)) {
    case CellCoverage::Empty: return;
    case CellCoverage::Full:
      for (const auto& p : fullCellQuadrature()) points.push_back({(offset + p.position) * scale, p.weight * volumeScale});
      return;
    case CellCoverage::Partial: break;
  }
  // Degree-2 rule with barycentric coordinates (a, b, b, b) and permutations.
  const double a = 0.5854101966249685, b = 0.1381966011250105;
  for (const LocalTet& t : clipCellInside(phi)) {
    const double volume = t.volume() * volumeScale;
    const auto& v = t.vertices;
    if (rule == SubTetRule::Centroid) {
      points.push_back({(offset + (v[0] + v[1] + v[2] + v[3]) / 4.0) * scale, volume});
      continue;
    }
    for (int i = 0; i < 4; ++i) {
      Vec3 p = Vec3::Zero();
      for (int j = 0; j < 4; ++j) p += (i == j ? a : b) * v[j];
      points.push_back({(offset + p) * scale, volume / 4.0});
    }
  }
}

double subCellVolume(const std::array<double, 8>& phi) {
  switch (classifyValues(phi.data(), 8)) {
    case CellCoverage::Empty: return 0.0;
    case CellCoverage::Full: return 1.0;
    case CellCoverage::Partial: break;
  }
  double volume = 0.0;
  for (const LocalTet& t : clipCellInside(phi)) volume += t.volume();
  return volume;
}

}  // namespace

CellCoverage classifyCell(const std::array<double, 8>& phi) { return classifyValues(phi.data(), 8); }

CellCoverage classifyCell(const CellSamples& samples) {
  return classifyValues(samples.values.data(), samples.values.size());
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

std::vector<LocalQuadraturePoint> cellQuadrature(const CellSamples& samples, const CutCellQuadratureOptions& options) {
  switch (classifyCell(samples)) {
    case CellCoverage::Empty: return {};
    case CellCoverage::Full: return fullCellQuadrature();
    case CellCoverage::Partial: break;
  }
  const int s = samples.subdivision;
  std::vector<LocalQuadraturePoint> points;
  for (int k = 0; k < s; ++k)
    for (int j = 0; j < s; ++j)
      for (int i = 0; i < s; ++i)
        appendSubCellRule(samples.subCellValues(i, j, k), Vec3(i, j, k), 1.0 / s, options.rule, points);
  return options.compress ? compressQuadrature(points) : points;
}

std::vector<LocalQuadraturePoint> cellQuadrature(const std::array<double, 8>& phi,
                                                 const CutCellQuadratureOptions& options) {
  return cellQuadrature(CellSamples::fromCorners(phi), options);
}

void floorCellFraction(std::vector<LocalQuadraturePoint>& rule, double minFraction) {
  if (rule.empty() || !(minFraction > 0.0)) return;
  // Each corner's lumped share of the cell (fractions of the cell volume).
  HexShapeValues share = HexShapeValues::Zero();
  for (const LocalQuadraturePoint& p : rule) share += p.weight * trilinearShapeValues(p.position);
  const double added = minFraction - 8.0 * share.minCoeff();
  if (!(added > 0.0)) return;
  for (LocalQuadraturePoint p : fullCellQuadrature()) {
    p.weight *= added;  // Gauss weights 1/8: every corner's share grows by added / 8
    rule.push_back(p);
  }
}

double insideVolumeFraction(const CellSamples& samples) {
  switch (classifyCell(samples)) {
    case CellCoverage::Empty: return 0.0;
    case CellCoverage::Full: return 1.0;
    case CellCoverage::Partial: break;
  }
  const int s = samples.subdivision;
  double volume = 0.0;
  for (int k = 0; k < s; ++k)
    for (int j = 0; j < s; ++j)
      for (int i = 0; i < s; ++i) volume += subCellVolume(samples.subCellValues(i, j, k));
  return volume / (static_cast<double>(s) * s * s);
}

double insideVolumeFraction(const std::array<double, 8>& phi) {
  return insideVolumeFraction(CellSamples::fromCorners(phi));
}

}  // namespace softfit
