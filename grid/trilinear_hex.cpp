#include "grid/trilinear_hex.h"

namespace softfit {

namespace {
inline double factor(int corner, double t) { return corner ? t : 1.0 - t; }
inline double slope(int corner) { return corner ? 1.0 : -1.0; }
}  // namespace

HexShapeValues trilinearShapeValues(const Vec3& xi) {
  HexShapeValues N;
  for (int c = 0; c < 8; ++c)
    N[c] = factor(kHexCorner[c][0], xi[0]) * factor(kHexCorner[c][1], xi[1]) * factor(kHexCorner[c][2], xi[2]);
  return N;
}

HexShapeGradients trilinearShapeGradients(const Vec3& xi) {
  HexShapeGradients G;
  for (int c = 0; c < 8; ++c) {
    const double fx = factor(kHexCorner[c][0], xi[0]);
    const double fy = factor(kHexCorner[c][1], xi[1]);
    const double fz = factor(kHexCorner[c][2], xi[2]);
    G(c, 0) = slope(kHexCorner[c][0]) * fy * fz;
    G(c, 1) = fx * slope(kHexCorner[c][1]) * fz;
    G(c, 2) = fx * fy * slope(kHexCorner[c][2]);
  }
  return G;
}

}  // namespace softfit
