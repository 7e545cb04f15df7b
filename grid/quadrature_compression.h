#pragma once
// Caratheodory (Tchakaloff) compression of a positive quadrature rule: keeps a subset of
// at most m of its points, with new non-negative weights, that integrates the m basis
// functions below exactly as the original rule does. Used to shrink the cut-cell rule
// (dozens of sub-tet points) to at most 11 points without changing its mass, its
// gravity load or its exactness for quadratic polynomials.
#include <vector>

#include "grid/cut_cell_quadrature.h"

namespace softfit {

// The 11 functions preserved: the trilinear space {1, x, y, z, xy, yz, zx, xyz} (so the
// lumped mass sum_q w_q N_a(q) is unchanged) plus x^2, y^2, z^2 (so every quadratic is
// integrated as before), in coordinates centred on the unit cell.
constexpr int kCompressionBasisSize = 11;

// Returns `points` itself when it has at most kCompressionBasisSize points. Deterministic.
std::vector<LocalQuadraturePoint> compressQuadrature(const std::vector<LocalQuadraturePoint>& points);

}  // namespace softfit
