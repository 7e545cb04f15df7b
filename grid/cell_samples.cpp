#include "grid/cell_samples.h"

#include "grid/trilinear_hex.h"

namespace softfit {

CellSamples CellSamples::fromCorners(const std::array<double, 8>& corners) {
  CellSamples s;
  s.subdivision = 1;
  s.values.resize(8);
  for (int c = 0; c < 8; ++c) s.values[kHexCorner[c][0] + 2 * (kHexCorner[c][1] + 2 * kHexCorner[c][2])] = corners[c];
  return s;
}

std::array<double, 8> CellSamples::subCellValues(int i, int j, int k) const {
  std::array<double, 8> v;
  for (int c = 0; c < 8; ++c) v[c] = at(i + kHexCorner[c][0], j + kHexCorner[c][1], k + kHexCorner[c][2]);
  return v;
}

}  // namespace softfit
