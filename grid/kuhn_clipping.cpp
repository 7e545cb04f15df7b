#include "grid/kuhn_clipping.h"

#include <Eigen/Geometry>

#include <cmath>

#include "grid/trilinear_hex.h"

namespace softfit {

namespace {

// Pieces smaller than this (in unit-cell volume) are round-off slivers of degenerate
// cases (crossings on vertices) and carry no volume.
constexpr double kMinimumVolume = 1e-15;

Vec3 crossing(const Vec3& a, const Vec3& b, double phiA, double phiB) {
  const double t = phiA / (phiA - phiB);  // phiA <= 0 < phiB
  return a + t * (b - a);
}

void addTet(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d, std::vector<LocalTet>& out) {
  LocalTet t{{a, b, c, d}};
  if (t.volume() > kMinimumVolume) out.push_back(t);
}

// Triangular prism with bottom (v0, v1, v2), top (v3, v4, v5) and lateral edges
// v0-v3, v1-v4, v2-v5, all faces planar: three tets with consistent quad diagonals.
void addPrism(const std::array<Vec3, 6>& v, std::vector<LocalTet>& out) {
  addTet(v[0], v[1], v[2], v[5], out);
  addTet(v[0], v[1], v[5], v[4], out);
  addTet(v[0], v[4], v[5], v[3], out);
}

}  // namespace

double LocalTet::volume() const {
  return std::abs((vertices[1] - vertices[0]).dot((vertices[2] - vertices[0]).cross(vertices[3] - vertices[0]))) / 6.0;
}

void clipTetInside(const std::array<Vec3, 4>& p, const std::array<double, 4>& phi, std::vector<LocalTet>& out) {
  int in[4], outside[4];
  int nIn = 0, nOut = 0;
  for (int i = 0; i < 4; ++i) {
    if (phi[i] <= 0.0) in[nIn++] = i;
    else outside[nOut++] = i;
  }
  auto x = [&](int i, int o) { return crossing(p[i], p[o], phi[i], phi[o]); };
  switch (nIn) {
    case 0:
      return;
    case 4:
      addTet(p[0], p[1], p[2], p[3], out);
      return;
    case 1: {
      const int a = in[0];
      addTet(p[a], x(a, outside[0]), x(a, outside[1]), x(a, outside[2]), out);
      return;
    }
    case 2: {
      const int a = in[0], b = in[1], c = outside[0], d = outside[1];
      addPrism({p[a], x(a, c), x(a, d), p[b], x(b, c), x(b, d)}, out);
      return;
    }
    default: {  // 3 inside: the tet minus the corner at the outside vertex
      const int a = in[0], b = in[1], c = in[2], d = outside[0];
      addPrism({p[a], p[b], p[c], x(a, d), x(b, d), x(c, d)}, out);
      return;
    }
  }
}

std::vector<LocalTet> clipCellInside(const std::array<double, 8>& phi) {
  std::vector<LocalTet> pieces;
  pieces.reserve(18);
  for (const auto& tet : kKuhnTets) {
    const std::array<Vec3, 4> p = {hexCorner(tet[0]), hexCorner(tet[1]), hexCorner(tet[2]), hexCorner(tet[3])};
    const std::array<double, 4> values = {phi[tet[0]], phi[tet[1]], phi[tet[2]], phi[tet[3]]};
    clipTetInside(p, values, pieces);
  }
  return pieces;
}

}  // namespace softfit
