#pragma once
// Quadrature over the inside part of one grid cell, in unit-cell coordinates with
// weights as fractions of the cell volume. The cell's geometry is given by SDF samples
// (cell_samples.h: its 8 corners, or a refined (s+1)^3 sub-lattice). Full cells (every
// sample <= 0) use the 2x2x2 Gauss rule; partial cells integrate exactly over the
// clipped Kuhn tets of every sub-cell (kuhn_clipping.h) with a rule per sub-tet (and
// 2x2x2 Gauss on full sub-cells), so the weights sum to the exact volume of the
// piecewise-linear inside region and the rule converges under refinement. The result
// is then compressed to at most 11 points (quadrature_compression.h). The element
// (cut_cell_grid.h) then applies the volume-fraction floor (floorCellFraction).
#include <array>
#include <vector>

#include "forward/types.h"
#include "grid/cell_samples.h"

namespace softfit {

struct LocalQuadraturePoint {
  Vec3 position;        // unit-cell coordinates in [0,1]^3
  double weight = 0.0;  // fraction of the cell volume
};

enum class CellCoverage { Empty, Partial, Full };

// Empty: no sample phi < 0 (the interpolant is >= 0 in the cell). Full: every sample
// phi <= 0. Partial otherwise.
CellCoverage classifyCell(const std::array<double, 8>& phi);
CellCoverage classifyCell(const CellSamples& samples);

enum class SubTetRule {
  Centroid,   // 1 point per sub-tet (degree 1)
  FourPoint,  // 4 symmetric points per sub-tet (degree 2): full-rank cut-cell stiffness
};

struct CutCellQuadratureOptions {
  SubTetRule rule = SubTetRule::FourPoint;
  // Caratheodory-compress the partial-cell rule to at most 11 points with the same
  // trilinear and quadratic moments (quadrature_compression.h): about 4x fewer points.
  bool compress = true;
  // Volume-fraction floor (stabilization of nearly empty cut cells), applied by the
  // element (makeCutCellElement), not by cellQuadrature: see floorCellFraction. Without
  // it a corner node of a sliver cell gets a lumped mass down to 1e-14 of an interior
  // node's and almost no stiffness, and the linear systems let it swing metres away.
  // 0 = off.
  double minCellFraction = kDefaultMinCellFraction;
  static constexpr double kDefaultMinCellFraction = 1e-3;
};

// 2x2x2 Gauss-Legendre points, weights 1/8.
std::vector<LocalQuadraturePoint> fullCellQuadrature();

// The rule for a cell with corner values phi (VTK order): Gauss for full cells, clipped
// sub-tets for partial cells, nothing for empty ones.
std::vector<LocalQuadraturePoint> cellQuadrature(const std::array<double, 8>& phi,
                                                 const CutCellQuadratureOptions& options = {});
std::vector<LocalQuadraturePoint> cellQuadrature(const CellSamples& samples, const CutCellQuadratureOptions& options = {});

// The floor above: the cell is integrated as if every corner node saw at least
// minFraction of material in it. Corner a's lumped share of the cell is
// m_a = sum_q w_q N_a(x_q) (1/8 for a full cell); when 8 min_a m_a < minFraction, the
// 2x2x2 Gauss rule with total weight minFraction - 8 min_a m_a is appended (material
// spread evenly over the cell), so every corner gets m_a >= minFraction / 8 and the
// cell's stiffness has full rank. A cell with volume fraction f < minFraction gets at
// least minFraction - f; well-filled cells get nothing. The added weight is continuous
// in the samples. Empty rules stay empty.
void floorCellFraction(std::vector<LocalQuadraturePoint>& rule, double minFraction);

// Exact volume fraction of {phi_lin <= 0} in the cell (sum of the weights above).
double insideVolumeFraction(const std::array<double, 8>& phi);
double insideVolumeFraction(const CellSamples& samples);

}  // namespace softfit
