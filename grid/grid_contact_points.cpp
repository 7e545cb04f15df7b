#include "grid/grid_contact_points.h"

#include <Eigen/Geometry>

#include <unordered_map>

#include "grid/trilinear_hex.h"

namespace softfit {

namespace {

// Area of {phi_lin = 0} in one tet with corners p: the cut where the tet has corners
// both inside (phi <= 0) and outside (phi > 0), a triangle or a quad (a point or a
// segment when the inside corners are zeros only: area 0).
double tetSurfaceArea(const std::array<Vec3, 4>& p, const std::array<double, 4>& phi) {
  int in[4], out[4], nIn = 0, nOut = 0;
  for (int c = 0; c < 4; ++c) (phi[c] <= 0.0 ? in[nIn++] : out[nOut++]) = c;
  if (nIn == 0 || nOut == 0) return 0.0;
  auto cut = [&](int a, int b) {
    const double t = phi[a] / (phi[a] - phi[b]);
    return Vec3(p[a] + t * (p[b] - p[a]));
  };
  auto triangle = [](const Vec3& a, const Vec3& b, const Vec3& c) { return 0.5 * (b - a).cross(c - a).norm(); };
  if (nIn == 1) return triangle(cut(in[0], out[0]), cut(in[0], out[1]), cut(in[0], out[2]));
  if (nIn == 3) return triangle(cut(in[0], out[0]), cut(in[1], out[0]), cut(in[2], out[0]));
  const Vec3 ac = cut(in[0], out[0]), ad = cut(in[0], out[1]), bd = cut(in[1], out[1]), bc = cut(in[1], out[0]);
  return triangle(ac, ad, bd) + triangle(ac, bd, bc);
}

// Key of a contact point's lattice location: its node, or the edge from a node along +axis.
long long nodeKey(long long latticeNode) { return 4 * latticeNode + 3; }
long long edgeKey(long long latticeNode, int axis) { return 4 * latticeNode + axis; }

// Splits every lattice cell's surface area equally among the contact points on its
// corners and edges (`keys[p]`: the location of point p).
void assignAreas(const SdfLattice& lattice, const std::vector<long long>& keys, std::vector<ContactPoint>& points) {
  std::unordered_map<long long, std::vector<int>> at;
  for (size_t p = 0; p < points.size(); ++p) at[keys[p]].push_back(static_cast<int>(p));
  for (auto& p : points) p.area = 0.0;
  const Eigen::Vector3i cells = lattice.cellDims();
  const double h2 = lattice.cellSize() * lattice.cellSize();
  std::vector<int> mine;
  for (int k = 0; k < cells[2]; ++k)
    for (int j = 0; j < cells[1]; ++j)
      for (int i = 0; i < cells[0]; ++i) {
        mine.clear();
        auto collect = [&](long long key) {
          auto it = at.find(key);
          if (it != at.end()) mine.insert(mine.end(), it->second.begin(), it->second.end());
        };
        for (int c = 0; c < 8; ++c)
          collect(nodeKey(lattice.node(i + kHexCorner[c][0], j + kHexCorner[c][1], k + kHexCorner[c][2])));
        for (int axis = 0; axis < 3; ++axis)
          for (int e = 0; e < 4; ++e) {
            Eigen::Vector3i o(i, j, k);
            o[(axis + 1) % 3] += e & 1;
            o[(axis + 2) % 3] += e >> 1;
            collect(edgeKey(lattice.node(o[0], o[1], o[2]), axis));
          }
        if (mine.empty()) continue;
        const double area = h2 * cellSurfaceArea(lattice.cellSamples(i, j, k));
        for (int p : mine) points[static_cast<size_t>(p)].area += area / static_cast<double>(mine.size());
      }
}

}  // namespace

std::vector<ContactPoint> surfaceContactPoints(const EmbeddedSurface& surface, const VecX& rest) {
  const SurfacePoints p = surface.positions(rest);
  std::vector<double> area(static_cast<size_t>(surface.vertexCount()), 0.0);
  for (int t = 0; t < surface.triangleCount(); ++t) {
    const Vec3 a = p.row(surface.triangles(t, 0)), b = p.row(surface.triangles(t, 1)), c = p.row(surface.triangles(t, 2));
    const double third = (b - a).cross(c - a).norm() / 6.0;
    for (int k = 0; k < 3; ++k) area[static_cast<size_t>(surface.triangles(t, k))] += third;
  }
  std::vector<ContactPoint> points;
  for (int v = 0; v < surface.vertexCount(); ++v) {
    if (area[static_cast<size_t>(v)] <= 0.0) continue;
    ContactPoint point;
    point.area = area[static_cast<size_t>(v)];
    for (Eigen::SparseMatrix<double, Eigen::RowMajor, int>::InnerIterator it(surface.weights, v); it; ++it) {
      if (it.value() == 0.0) continue;
      point.nodes.push_back(static_cast<int>(it.col()));
      point.weights.push_back(it.value());
    }
    points.push_back(std::move(point));
  }
  return points;
}

double cellSurfaceArea(const CellSamples& samples) {
  const int s = samples.subdivision;
  double area = 0.0;
  for (int k = 0; k < s; ++k)
    for (int j = 0; j < s; ++j)
      for (int i = 0; i < s; ++i) {
        const std::array<double, 8> phi = samples.subCellValues(i, j, k);
        for (const auto& tet : kKuhnTets) {
          std::array<Vec3, 4> p;
          std::array<double, 4> v;
          for (int c = 0; c < 4; ++c) {
            p[c] = hexCorner(tet[c]);
            v[c] = phi[tet[c]];
          }
          area += tetSurfaceArea(p, v);
        }
      }
  return area / (static_cast<double>(s) * s);
}

std::vector<ContactPoint> edgeCrossingContactPoints(const CutCellGrid& grid) {
  const SdfLattice& lattice = grid.lattice();
  const Eigen::Vector3i dims = lattice.nodeDims();
  std::vector<ContactPoint> points;
  std::vector<long long> keys;
  for (int a = 0; a < grid.nodeCount(); ++a) {
    const long long la = grid.latticeNodeOf(a);
    if (lattice.phi(la) == 0.0) {
      points.push_back(ContactPoint{{a}, {1.0}});
      keys.push_back(nodeKey(la));
    }
    const Eigen::Vector3i ijk = lattice.nodeCoordinates(la);
    for (int axis = 0; axis < 3; ++axis) {
      if (ijk[axis] + 1 >= dims[axis]) continue;
      Eigen::Vector3i next = ijk;
      ++next[axis];
      const int b = grid.nodeOfLatticeNode(lattice.node(next[0], next[1], next[2]));
      if (b < 0) continue;
      // Crossings of the piecewise-linear samples along the edge (the 2 node values, or
      // the sub-lattice samples of a refined cell around it); interior zero samples too.
      const std::vector<double> v = lattice.edgeSamples(ijk[0], ijk[1], ijk[2], axis);
      const double segments = static_cast<double>(v.size() - 1);
      for (size_t m = 0; m + 1 < v.size(); ++m) {
        double t = -1.0;
        if ((v[m] < 0.0 && v[m + 1] > 0.0) || (v[m] > 0.0 && v[m + 1] < 0.0))
          t = (static_cast<double>(m) + v[m] / (v[m] - v[m + 1])) / segments;
        else if (m > 0 && v[m] == 0.0)
          t = static_cast<double>(m) / segments;
        if (t >= 0.0) {
          points.push_back(ContactPoint{{a, b}, {1.0 - t, t}});
          keys.push_back(edgeKey(la, axis));
        }
      }
    }
  }
  assignAreas(lattice, keys, points);
  return points;
}

}  // namespace softfit
