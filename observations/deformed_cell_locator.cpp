#include "observations/deformed_cell_locator.h"

#include <Eigen/LU>  // 3x3 inverse
#include <algorithm>
#include <cmath>
#include <limits>

#include "forward/errors.h"

namespace softfit {

namespace {
// A cell whose deformed box spans more than this many cell sizes along an axis is not
// binned (deformed_cell_locator.h).
constexpr double kLargeCellBins = 8.0;
}  // namespace

std::optional<CellLocation> invertTrilinearMap(const Eigen::Matrix<double, 8, 3>& corners, const Vec3& p) {
  const double size = (corners.colwise().maxCoeff() - corners.colwise().minCoeff()).norm();
  if (!(size > 0.0)) return std::nullopt;
  // x(u, v, w) = c0 + e1 u + e2 v + e3 w + e4 uv + e5 uw + e6 vw + e7 uvw (corners in VTK
  // order): the map and its Jacobian in a few dozen flops per Newton iteration.
  const auto c = [&](int k) { return Vec3(corners.row(k).transpose()); };
  const Vec3 e1 = c(1) - c(0), e2 = c(3) - c(0), e3 = c(4) - c(0);
  const Vec3 e4 = c(0) - c(1) + c(2) - c(3), e5 = c(0) - c(1) - c(4) + c(5), e6 = c(0) - c(3) - c(4) + c(7);
  const Vec3 e7 = c(1) - c(0) - c(2) + c(3) + c(4) - c(5) + c(6) - c(7);
  const Vec3 d = c(0) - p;
  CellLocation loc;
  loc.xi = Vec3::Constant(0.5);
  for (int iteration = 0; iteration < 30; ++iteration) {
    const double u = loc.xi[0], v = loc.xi[1], w = loc.xi[2];
    const Vec3 r = d + e1 * u + e2 * v + e3 * w + e4 * (u * v) + e5 * (u * w) + e6 * (v * w) + e7 * (u * v * w);
    loc.jacobian.col(0) = e1 + e4 * v + e5 * w + e7 * (v * w);  // dx/dxi
    loc.jacobian.col(1) = e2 + e4 * u + e6 * w + e7 * (u * w);
    loc.jacobian.col(2) = e3 + e5 * u + e6 * v + e7 * (u * v);
    if (r.norm() <= 1e-12 * size) {
      loc.outside = (loc.xi.cwiseMax(0.0).cwiseMin(1.0) - loc.xi).norm();
      return loc;
    }
    // 3x3: the closed-form (cofactor) inverse, several times cheaper than a pivoted LU.
    if (!(std::abs(loc.jacobian.determinant()) > 1e-14 * size * size * size)) return std::nullopt;
    loc.xi -= loc.jacobian.inverse() * r;
    if (!loc.xi.allFinite() || loc.xi.cwiseAbs().maxCoeff() > 10.0) return std::nullopt;
  }
  return std::nullopt;
}

DeformedCellLocator::DeformedCellLocator(const CutCellGrid& grid, const VecX& x) : grid_(grid), x_(x) {
  if (x.size() != 3 * grid.nodeCount())
    throw InputError("deformed cell locator: positions have " + std::to_string(x.size()) + " entries, the grid has " +
                     std::to_string(grid.nodeCount()) + " nodes");
  if (!x.allFinite()) throw SolveError("deformed cell locator: non-finite node positions");
  // Each cell's deformed box, once; the bins cover the boxes of the cells that are
  // binned (all but the large ones).
  const int cellCount = grid.cellCount();
  boxLo_.resize(static_cast<size_t>(cellCount));
  boxHi_.resize(static_cast<size_t>(cellCount));
  std::vector<char> large(static_cast<size_t>(cellCount), 0);
  Vec3 lo = Vec3::Constant(std::numeric_limits<double>::infinity()), hi = -lo;
  for (int cell = 0; cell < cellCount; ++cell) {
    const Eigen::Matrix<double, 8, 3> c = cellCorners(cell);
    const Vec3 a = c.colwise().minCoeff().transpose(), b = c.colwise().maxCoeff().transpose();
    boxLo_[static_cast<size_t>(cell)] = a;
    boxHi_[static_cast<size_t>(cell)] = b;
    if ((b - a).maxCoeff() > kLargeCellBins * grid.cellSize()) {
      large[static_cast<size_t>(cell)] = 1;
      largeCells_.push_back(cell);
      continue;
    }
    lo = lo.cwiseMin(a);
    hi = hi.cwiseMax(b);
  }
  if (!(lo.array() <= hi.array()).all()) lo = hi = x.head<3>();  // every cell is large (or none)
  // Bins of the cell size, coarser when the body spreads far (at most ~8 bins per cell).
  binSize_ = grid.cellSize();
  const double maxBins = 8.0 * std::max(1, cellCount) + 64.0;
  while (((hi - lo) / binSize_).array().floor().prod() > maxBins) binSize_ *= 2.0;
  origin_ = lo;
  for (int a = 0; a < 3; ++a) dims_[a] = static_cast<int>(std::floor((hi[a] - lo[a]) / binSize_)) + 1;

  // Two passes (count, fill) over the bins each binned cell's deformed bounding box
  // overlaps; cells are visited in ascending id, so every bin lists its cells ascending.
  const long long binCount = static_cast<long long>(dims_[0]) * dims_[1] * dims_[2];
  binStart_.assign(static_cast<size_t>(binCount) + 1, 0);
  const auto forEachBinOfCell = [&](int cell, const auto& visit) {
    const Eigen::Vector3i b0 = binCoordinates(boxLo_[static_cast<size_t>(cell)]);
    const Eigen::Vector3i b1 = binCoordinates(boxHi_[static_cast<size_t>(cell)]);
    for (int k = b0[2]; k <= b1[2]; ++k)
      for (int j = b0[1]; j <= b1[1]; ++j)
        for (int i = b0[0]; i <= b1[0]; ++i) visit(binOf(Eigen::Vector3i(i, j, k)));
  };
  for (int cell = 0; cell < cellCount; ++cell)
    if (!large[static_cast<size_t>(cell)])
      forEachBinOfCell(cell, [&](long long b) { ++binStart_[static_cast<size_t>(b) + 1]; });
  for (size_t b = 0; b + 1 < binStart_.size(); ++b) binStart_[b + 1] += binStart_[b];
  binCells_.resize(static_cast<size_t>(binStart_.back()));
  std::vector<int> fill(binStart_.begin(), binStart_.end() - 1);
  for (int cell = 0; cell < cellCount; ++cell)
    if (!large[static_cast<size_t>(cell)])
      forEachBinOfCell(cell, [&](long long b) { binCells_[static_cast<size_t>(fill[static_cast<size_t>(b)]++)] = cell; });
}

Eigen::Vector3i DeformedCellLocator::binCoordinates(const Vec3& p) const {
  Eigen::Vector3i b;
  for (int a = 0; a < 3; ++a)
    b[a] = std::clamp(static_cast<int>(std::floor((p[a] - origin_[a]) / binSize_)), 0, dims_[a] - 1);
  return b;
}

Eigen::Matrix<double, 8, 3> DeformedCellLocator::cellCorners(int cell) const {
  Eigen::Matrix<double, 8, 3> c;
  const GridCell& g = grid_.cells()[static_cast<size_t>(cell)];
  for (int k = 0; k < 8; ++k) c.row(k) = x_.segment<3>(3 * g.nodes[static_cast<size_t>(k)]).transpose();
  return c;
}

namespace {
constexpr double kInside = 1e-9;  // xi tolerance of "inside the unit cube"
}  // namespace

std::vector<CellLocation> DeformedCellLocator::containingCells(const Vec3& p) const {
  std::vector<CellLocation> found;
  if (!p.allFinite()) return found;
  const double slack = kInside * binSize_;
  const auto test = [&](int cell) {
    const Vec3& lo = boxLo_[static_cast<size_t>(cell)];
    const Vec3& hi = boxHi_[static_cast<size_t>(cell)];
    if (p[0] < lo[0] - slack || p[1] < lo[1] - slack || p[2] < lo[2] - slack || p[0] > hi[0] + slack ||
        p[1] > hi[1] + slack || p[2] > hi[2] + slack)
      return;
    std::optional<CellLocation> loc = invertTrilinearMap(cellCorners(cell), p);
    if (loc && loc->outside <= kInside) {
      loc->cell = cell;
      found.push_back(*loc);
    }
  };
  const Vec3 u = (p - origin_) / binSize_;
  if ((u.array() >= 0.0).all() && (u.array() < dims_.cast<double>().array()).all()) {
    const long long home = binOf(binCoordinates(p));
    for (int s = binStart_[static_cast<size_t>(home)]; s < binStart_[static_cast<size_t>(home) + 1]; ++s)
      test(binCells_[static_cast<size_t>(s)]);
  }
  for (const int cell : largeCells_) test(cell);
  if (!largeCells_.empty())
    std::sort(found.begin(), found.end(), [](const CellLocation& a, const CellLocation& b) { return a.cell < b.cell; });
  return found;
}

std::optional<CellLocation> DeformedCellLocator::locate(const Vec3& p, double maxOutside) const {
  if (!p.allFinite()) return std::nullopt;
  const std::vector<CellLocation> inside = containingCells(p);
  if (!inside.empty()) return inside.front();
  if (!(maxOutside > 0.0)) return std::nullopt;
  // Extrapolation: the least-outside cell among the neighbouring bins' cells and the
  // large cells whose boxes, grown by one bin, hold p (ties: lowest id). Cells overlap
  // several bins: gather, sort and deduplicate the candidates first.
  std::vector<int> candidates;
  // Distance of p outside the binned box, in bins: farther than one bin has no binned candidate.
  const Vec3 u = (p - origin_) / binSize_;
  bool near = true;
  for (int a = 0; a < 3; ++a) near &= !(u[a] < -1.0 || u[a] > dims_[a] + 1.0);
  if (near) {
    const Eigen::Vector3i b = binCoordinates(p);
    for (int dk = -1; dk <= 1; ++dk)
      for (int dj = -1; dj <= 1; ++dj)
        for (int di = -1; di <= 1; ++di) {
          const Eigen::Vector3i n = b + Eigen::Vector3i(di, dj, dk);
          if ((n.array() < 0).any() || (n.array() >= dims_.array()).any()) continue;
          const long long bin = binOf(n);
          candidates.insert(candidates.end(), binCells_.begin() + binStart_[static_cast<size_t>(bin)],
                            binCells_.begin() + binStart_[static_cast<size_t>(bin) + 1]);
        }
  }
  for (const int cell : largeCells_) {
    if (((p.array() >= boxLo_[static_cast<size_t>(cell)].array() - binSize_).all()) &&
        ((p.array() <= boxHi_[static_cast<size_t>(cell)].array() + binSize_).all()))
      candidates.push_back(cell);
  }
  std::sort(candidates.begin(), candidates.end());
  candidates.erase(std::unique(candidates.begin(), candidates.end()), candidates.end());
  std::optional<CellLocation> best;
  for (const int cell : candidates) {  // ascending ids: a strict improvement replaces
    std::optional<CellLocation> loc = invertTrilinearMap(cellCorners(cell), p);
    if (!loc || loc->outside > maxOutside) continue;
    if (!best || loc->outside < best->outside) {
      loc->cell = cell;
      best = loc;
    }
  }
  return best;
}

}  // namespace softfit
