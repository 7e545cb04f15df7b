#include "grid/embedded_surface.h"

#include <Eigen/Geometry>

#include <algorithm>
#include <array>
#include <map>
#include <unordered_map>
#include <utility>
#include <vector>

#include <Eigen/LU>

#include "grid/cut_cell_grid.h"
#include "grid/trilinear_hex.h"

namespace softfit {

SurfacePoints EmbeddedSurface::positions(const VecX& x) const {
  const Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, 3, Eigen::RowMajor>> nodes(x.data(), x.size() / 3, 3);
  if (identity) return nodes;
  return weights * nodes;
}

VecX EmbeddedSurface::flatPositions(const VecX& x) const {
  const SurfacePoints p = positions(x);
  return Eigen::Map<const VecX>(p.data(), p.size());
}

EmbeddedSurface identityEmbedding(int nodeCount, SurfaceTriangles triangles) {
  EmbeddedSurface s;
  s.weights.resize(nodeCount, nodeCount);
  s.weights.setIdentity();
  s.identity = true;
  s.triangles = std::move(triangles);
  return s;
}

namespace {

struct PairHash {
  size_t operator()(const std::pair<long long, long long>& p) const {
    return std::hash<long long>()(p.first * 1000003LL ^ p.second);
  }
};

// Builds the vertex list and triangles of the marching-tets surface.
class SurfaceBuilder {
 public:
  explicit SurfaceBuilder(const CutCellGrid& grid) : grid_(grid), lattice_(grid.lattice()) {}

  void addCell(int cellId) {
    const GridCell& cell = grid_.cells()[cellId];
    std::array<long long, 8> latticeNode;
    std::array<double, 8> phi;
    bool touchesSurface = false;
    for (int c = 0; c < 8; ++c) {
      latticeNode[c] = grid_.latticeNodeOf(cell.nodes[c]);
      phi[c] = lattice_.phi(latticeNode[c]);
      touchesSurface = touchesSurface || phi[c] >= 0.0;
    }
    if (!touchesSurface) return;
    for (const auto& tet : kKuhnTets) {
      int in[4], out[4], nIn = 0, nOut = 0;
      for (int v = 0; v < 4; ++v) {
        if (phi[tet[v]] < 0.0) in[nIn++] = tet[v];
        else out[nOut++] = tet[v];
      }
      if (nIn == 0 || nIn == 4) continue;
      const Vec3 gradient = tetGradient(tet, phi);
      auto v = [&](int i, int o) { return vertex(cellId, latticeNode, phi, i, o); };
      if (nIn == 1) {
        addTriangle(v(in[0], out[0]), v(in[0], out[1]), v(in[0], out[2]), gradient);
      } else if (nIn == 3) {
        addTriangle(v(in[0], out[0]), v(in[1], out[0]), v(in[2], out[0]), gradient);
      } else {
        const int ac = v(in[0], out[0]), ad = v(in[0], out[1]), bd = v(in[1], out[1]), bc = v(in[1], out[0]);
        addTriangle(ac, ad, bd, gradient);
        addTriangle(ac, bd, bc, gradient);
      }
    }
  }

  EmbeddedSurface finish() {
    // A face between two inside tets whose corners all have phi = 0 is emitted twice
    // with opposite orientation: drop such pairs (interior faces).
    std::map<std::array<int, 3>, int> count;
    for (const auto& t : triangles_) ++count[sorted(t)];
    std::vector<std::array<int, 3>> kept;
    for (const auto& t : triangles_)
      if (count[sorted(t)] == 1) kept.push_back(t);
    EmbeddedSurface s;
    s.weights.resize(static_cast<int>(rest_.size()), grid_.nodeCount());
    s.weights.setFromTriplets(weights_.begin(), weights_.end());
    s.triangles.resize(static_cast<Eigen::Index>(kept.size()), 3);
    for (size_t t = 0; t < kept.size(); ++t)
      for (int c = 0; c < 3; ++c) s.triangles(static_cast<Eigen::Index>(t), c) = kept[t][c];
    return s;
  }

 private:
  static std::array<int, 3> sorted(std::array<int, 3> t) {
    std::sort(t.begin(), t.end());
    return t;
  }

  // Gradient of the linear interpolant of phi on a Kuhn tet (unit-cell coordinates).
  static Vec3 tetGradient(const int (&tet)[4], const std::array<double, 8>& phi) {
    Mat3 edges;
    Vec3 rise;
    for (int r = 0; r < 3; ++r) {
      edges.row(r) = (hexCorner(tet[r + 1]) - hexCorner(tet[0])).transpose();
      rise[r] = phi[tet[r + 1]] - phi[tet[0]];
    }
    return edges.inverse() * rise;
  }

  // The crossing on corner edge (inside i, outside o) of cell `cellId`; a zero at o puts
  // it on node o.
  int vertex(int cellId, const std::array<long long, 8>& latticeNode, const std::array<double, 8>& phi, int i, int o) {
    const bool onNode = phi[o] == 0.0;
    const std::pair<long long, long long> key = onNode ? std::make_pair(latticeNode[o], latticeNode[o])
                                                       : std::make_pair(latticeNode[i], latticeNode[o]);
    const auto found = index_.find(key);
    if (found != index_.end()) return found->second;
    const double s = onNode ? 1.0 : phi[i] / (phi[i] - phi[o]);
    const Vec3 xi = hexCorner(i) + s * (hexCorner(o) - hexCorner(i));
    const GridCell& cell = grid_.cells()[cellId];
    const int id = static_cast<int>(rest_.size());
    const HexShapeValues N = trilinearShapeValues(xi);
    Vec3 X = Vec3::Zero();
    for (int c = 0; c < 8; ++c) {
      if (N[c] == 0.0) continue;
      weights_.emplace_back(id, cell.nodes[c], N[c]);
      X += N[c] * grid_.restPositions().segment<3>(3 * cell.nodes[c]);
    }
    rest_.push_back(X);
    index_.emplace(key, id);
    return id;
  }

  void addTriangle(int a, int b, int c, const Vec3& gradient) {
    if (a == b || b == c || a == c) return;
    const Vec3 n = (rest_[b] - rest_[a]).cross(rest_[c] - rest_[a]);
    if (n.squaredNorm() == 0.0) return;
    if (n.dot(gradient) < 0.0) std::swap(b, c);
    triangles_.push_back({a, b, c});
  }

  const CutCellGrid& grid_;
  const SdfLattice& lattice_;
  std::unordered_map<std::pair<long long, long long>, int, PairHash> index_;
  std::vector<Eigen::Triplet<double, int>> weights_;
  std::vector<Vec3> rest_;
  std::vector<std::array<int, 3>> triangles_;
};

}  // namespace

EmbeddedSurface extractEmbeddedSurface(const CutCellGrid& grid) {
  SurfaceBuilder builder(grid);
  for (int c = 0; c < grid.cellCount(); ++c) builder.addCell(c);
  return builder.finish();
}

}  // namespace softfit
