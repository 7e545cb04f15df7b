#include "grid/embedded_surface.h"

#include <Eigen/Geometry>

#include <algorithm>
#include <array>
#include <map>
#include <unordered_map>
#include <utility>
#include <vector>

#include <Eigen/LU>

#include "forward/errors.h"
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

void EmbeddedSurface::addNodeGradient(const VecX& gy, VecX& gx) const {
  if (identity) {
    gx += gy;
    return;
  }
  const Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, 3, Eigen::RowMajor>> gyv(gy.data(), gy.size() / 3, 3);
  const Eigen::Matrix<double, Eigen::Dynamic, 3, Eigen::RowMajor> gxv = weights.transpose() * gyv;
  gx += Eigen::Map<const VecX>(gxv.data(), gxv.size());
}

void EmbeddedSurface::validateTriangles(const std::string& context) const {
  if (triangles.rows() == 0) throw InputError(context + ": the surface has no triangles");
  if (triangles.minCoeff() < 0) throw InputError(context + ": the surface has a negative node index");
  if (!identity && triangles.maxCoeff() >= vertexCount())
    throw InputError(context + ": a surface triangle references a vertex the embedding does not have");
}

void EmbeddedSurface::checkNodeCount(const VecX& x) const {
  if (!identity && x.size() != 3 * weights.cols())
    throw InputError("the state has " + std::to_string(x.size() / 3) + " nodes, the surface embedding " +
                     std::to_string(weights.cols()));
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
  SurfaceBuilder(const CutCellGrid& grid, bool useSamples)
      : grid_(grid), lattice_(grid.lattice()), useSamples_(useSamples), scale_(useSamples ? grid.lattice().refinement() : 1) {
    fineDims_ = ((lattice_.nodeDims().array() - 1) * scale_ + 1).matrix().cast<long long>();
  }

  void addCell(int cellId) {
    const GridCell& cell = grid_.cells()[cellId];
    const CellSamples samples = useSamples_ ? lattice_.cellSamples(cell.index[0], cell.index[1], cell.index[2])
                                            : CellSamples::fromCorners(lattice_.cellValues(cell.index[0], cell.index[1], cell.index[2]));
    if (*std::max_element(samples.values.begin(), samples.values.end()) < 0.0) return;  // no surface
    const int s = samples.subdivision;
    for (int k = 0; k < s; ++k)
      for (int j = 0; j < s; ++j)
        for (int i = 0; i < s; ++i) addSubCell(cell, samples, Eigen::Vector3i(i, j, k));
  }

  EmbeddedSurface finish() {
    // A triangle emitted by the tets on both sides of a face cancels when the two copies
    // are opposite (an interior face between inside tets) and counts once when they agree.
    std::map<std::array<int, 3>, int> net;
    for (const auto& t : triangles_) net[sorted(t)] += orientation(t);
    std::vector<std::array<int, 3>> kept;
    for (const auto& t : triangles_) {
      auto it = net.find(sorted(t));
      if (it == net.end() || it->second == 0 || (it->second > 0) != (orientation(t) > 0)) continue;
      kept.push_back(t);
      net.erase(it);  // keep one copy
    }
    EmbeddedSurface s;
    s.weights.resize(static_cast<int>(rest_.size()), grid_.nodeCount());
    s.weights.setFromTriplets(weights_.begin(), weights_.end());
    s.triangles.resize(static_cast<Eigen::Index>(kept.size()), 3);
    for (size_t t = 0; t < kept.size(); ++t)
      for (int c = 0; c < 3; ++c) s.triangles(static_cast<Eigen::Index>(t), c) = kept[t][c];
    return s;
  }

 private:
  // +1 when t is an even permutation of its sorted vertices, -1 when odd.
  static int orientation(const std::array<int, 3>& t) {
    const int inversions = (t[0] > t[1]) + (t[0] > t[2]) + (t[1] > t[2]);
    return inversions % 2 == 0 ? 1 : -1;
  }

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

  // Surface pieces of one sub-cell: for each Kuhn tet the cut face {phi_lin = 0} when it
  // has corners on both sides (phi < 0 and phi > 0), and its faces with three zero
  // corners when the tet is inside (phi <= 0 at all corners), oriented away from it.
  void addSubCell(const GridCell& cell, const CellSamples& samples, const Eigen::Vector3i& sub) {
    const std::array<double, 8> phi = samples.subCellValues(sub[0], sub[1], sub[2]);
    auto v = [&](int i, int o) { return vertex(cell, samples.subdivision, sub, phi, i, o); };
    for (const auto& tet : kKuhnTets) {
      int in[4], out[4], nIn = 0, nOut = 0, negative = 0, zero = 0;
      for (int c = 0; c < 4; ++c) {
        const double value = phi[tet[c]];
        negative += value < 0.0;
        zero += value == 0.0;
        if (value <= 0.0) in[nIn++] = tet[c];
        else out[nOut++] = tet[c];
      }
      const Vec3 gradient = tetGradient(tet, phi);
      if (nOut == 0) {
        if (zero < 3) continue;
        for (int skip = 0; skip < 4; ++skip) {  // faces with three zero corners
          int face[3], n = 0;
          for (int c = 0; c < 4; ++c)
            if (c != skip) face[n++] = tet[c];
          if (phi[face[0]] != 0.0 || phi[face[1]] != 0.0 || phi[face[2]] != 0.0) continue;
          const Vec3 away = (hexCorner(face[0]) + hexCorner(face[1]) + hexCorner(face[2])) / 3.0 - hexCorner(tet[skip]);
          addTriangle(v(face[0], face[0]), v(face[1], face[1]), v(face[2], face[2]), away);
        }
        continue;
      }
      if (negative == 0) continue;  // zeros and positives only: no inside volume here
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

  // Global id of sub-cell corner c on the fine lattice (refinement scale_).
  long long fineNode(const GridCell& cell, int s, const Eigen::Vector3i& sub, int c) const {
    const int factor = scale_ / s;  // 1 when the cell carries the lattice's refinement
    long long id = 0, stride = 1;
    for (int a = 0; a < 3; ++a) {
      const long long f = static_cast<long long>(scale_) * cell.index[a] + factor * (sub[a] + kHexCorner[c][a]);
      id += f * stride;
      stride *= fineDims_[a];
    }
    return id;
  }

  // The crossing on sub-cell corner edge (inside i with phi <= 0, outside o with phi > 0);
  // a zero at i puts it on i. vertex(c, c) is corner c itself (a zero corner).
  int vertex(const GridCell& cell, int s, const Eigen::Vector3i& sub, const std::array<double, 8>& phi, int i, int o) {
    const bool onCorner = i == o || phi[i] == 0.0;
    const long long fi = fineNode(cell, s, sub, i);
    const std::pair<long long, long long> key = onCorner ? std::make_pair(fi, fi) : std::make_pair(fi, fineNode(cell, s, sub, o));
    const auto found = index_.find(key);
    if (found != index_.end()) return found->second;
    const double t = onCorner ? 0.0 : phi[i] / (phi[i] - phi[o]);
    const Vec3 xi = (sub.cast<double>() + hexCorner(i) + t * (hexCorner(o) - hexCorner(i))) / s;
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
  bool useSamples_;
  int scale_;
  Eigen::Matrix<long long, 3, 1> fineDims_;
  std::unordered_map<std::pair<long long, long long>, int, PairHash> index_;
  std::vector<Eigen::Triplet<double, int>> weights_;
  std::vector<Vec3> rest_;
  std::vector<std::array<int, 3>> triangles_;
};

}  // namespace

EmbeddedSurface extractEmbeddedSurface(const CutCellGrid& grid, SurfaceResolution resolution) {
  SurfaceBuilder builder(grid, resolution == SurfaceResolution::Samples);
  for (int c = 0; c < grid.cellCount(); ++c) builder.addCell(c);
  return builder.finish();
}

}  // namespace softfit
