#pragma once
// SDF samples of one grid cell on a regular (s+1)^3 sub-lattice (s = subdivision; s = 1:
// just the 8 corners). The cell's reference geometry is the piecewise-linear
// interpolant of these samples on the 6 Kuhn tets of every sub-cell.
#include <array>
#include <vector>

#include "forward/types.h"

namespace softfit {

struct CellSamples {
  int subdivision = 1;          // s >= 1 sub-cells per cell edge
  std::vector<double> values;   // (s+1)^3 samples, x fastest: i + (s+1) (j + (s+1) k)

  // Corner values in VTK hex order (trilinear_hex.h).
  static CellSamples fromCorners(const std::array<double, 8>& corners);
  double at(int i, int j, int k) const { return values[i + (subdivision + 1) * (j + (subdivision + 1) * k)]; }
  // Corner values of sub-cell (i, j, k) in VTK hex order.
  std::array<double, 8> subCellValues(int i, int j, int k) const;
};

}  // namespace softfit
