#include "grid/sdf_lattice.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

#include "forward/errors.h"
#include "grid/trilinear_hex.h"

namespace softfit {

namespace {

double sampleValue(const SignedDistanceField& sdf, const Vec3& X, double snap) {
  double v = sdf.value(X);
  if (!std::isfinite(v)) {
    std::ostringstream s;
    s << sdf.name() << ": SDF value at (" << X.transpose() << ") is not finite";
    throw InputError(s.str());
  }
  return std::abs(v) < snap ? 0.0 : v;
}

}  // namespace

SdfLattice::SdfLattice(double cellSize, Eigen::Vector3i lower, Eigen::Vector3i nodeDims, std::vector<double> phi,
                       std::string source)
    : h_(cellSize), lower_(std::move(lower)), dims_(std::move(nodeDims)), phi_(std::move(phi)), source_(std::move(source)) {
  if (static_cast<long long>(phi_.size()) != nodeCount())
    throw std::invalid_argument("SdfLattice: value count does not match the node dimensions");
}

Eigen::Vector3i SdfLattice::nodeCoordinates(long long node) const {
  const int i = static_cast<int>(node % dims_[0]);
  const long long rest = node / dims_[0];
  return Eigen::Vector3i(i, static_cast<int>(rest % dims_[1]), static_cast<int>(rest / dims_[1]));
}

std::array<double, 8> SdfLattice::cellValues(int i, int j, int k) const {
  std::array<double, 8> v;
  for (int c = 0; c < 8; ++c) v[c] = phi(i + kHexCorner[c][0], j + kHexCorner[c][1], k + kHexCorner[c][2]);
  return v;
}

long long SdfLattice::refinedSlot(long long cell) const {
  const auto it = std::lower_bound(refinedCells_.begin(), refinedCells_.end(), cell);
  if (it == refinedCells_.end() || *it != cell) return -1;
  return it - refinedCells_.begin();
}

CellSamples SdfLattice::cellSamples(int i, int j, int k) const {
  const long long slot = refinedSlot(cell(i, j, k));
  if (slot < 0) return CellSamples::fromCorners(cellValues(i, j, k));
  const size_t n = static_cast<size_t>(refinement_ + 1) * (refinement_ + 1) * (refinement_ + 1);
  CellSamples s;
  s.subdivision = refinement_;
  s.values.assign(refinedSamples_.begin() + static_cast<std::ptrdiff_t>(slot * n),
                  refinedSamples_.begin() + static_cast<std::ptrdiff_t>((slot + 1) * n));
  return s;
}

std::vector<double> SdfLattice::edgeSamples(int i, int j, int k, int axis) const {
  const int s = refinement_;
  const int u = (axis + 1) % 3, v = (axis + 2) % 3;
  const Eigen::Vector3i node(i, j, k);
  const Eigen::Vector3i cd = cellDims();
  if (s > 1) {
    // The (up to 4) cells around the edge: lower corner at node - du e_u - dv e_v.
    for (int dv = 0; dv <= 1; ++dv)
      for (int du = 0; du <= 1; ++du) {
        Eigen::Vector3i c = node;
        c[u] -= du;
        c[v] -= dv;
        if ((c.array() < 0).any() || (c.array() >= cd.array()).any()) continue;
        const long long slot = refinedSlot(cell(c[0], c[1], c[2]));
        if (slot < 0) continue;
        const size_t n = static_cast<size_t>(s + 1) * (s + 1) * (s + 1);
        const double* values = refinedSamples_.data() + static_cast<size_t>(slot) * n;
        std::vector<double> samples(s + 1);
        for (int m = 0; m <= s; ++m) {
          Eigen::Vector3i sub = Eigen::Vector3i::Zero();
          sub[axis] = m;
          sub[u] = du * s;
          sub[v] = dv * s;
          samples[m] = values[sub[0] + (s + 1) * (sub[1] + (s + 1) * sub[2])];
        }
        return samples;
      }
  }
  Eigen::Vector3i next = node;
  ++next[axis];
  return {phi(i, j, k), phi(next[0], next[1], next[2])};
}

void SdfLattice::setRefinedSamples(int refinement, std::vector<long long> cells, std::vector<double> samples) {
  const size_t n = static_cast<size_t>(refinement + 1) * (refinement + 1) * (refinement + 1);
  if (refinement < 1 || samples.size() != cells.size() * n || !std::is_sorted(cells.begin(), cells.end()))
    throw std::invalid_argument("SdfLattice::setRefinedSamples: inconsistent refinement data");
  refinement_ = refinement;
  refinedCells_ = std::move(cells);
  refinedSamples_ = std::move(samples);
}

double SdfLattice::interpolate(const Vec3& X) const {
  int cellIndex[3];
  Vec3 t;
  for (int a = 0; a < 3; ++a) {
    const double u = X[a] / h_ - lower_[a];
    if (!(u >= 0.0 && u <= dims_[a] - 1)) return std::numeric_limits<double>::infinity();
    cellIndex[a] = std::min(static_cast<int>(std::floor(u)), dims_[a] - 2);
    t[a] = u - cellIndex[a];
  }
  return interpolateInCell(cellIndex[0], cellIndex[1], cellIndex[2], t);
}

double SdfLattice::interpolateInCell(int i, int j, int k, const Vec3& t, Vec3* gradient) const {
  const CellSamples samples = cellSamples(i, j, k);
  const int s = samples.subdivision;
  int sub[3];
  Vec3 local;
  for (int a = 0; a < 3; ++a) {
    sub[a] = std::clamp(static_cast<int>(std::floor(t[a] * s)), 0, s - 1);
    local[a] = t[a] * s - sub[a];
  }
  const std::array<double, 8> v = samples.subCellValues(sub[0], sub[1], sub[2]);
  const HexShapeValues N = trilinearShapeValues(local);
  double value = 0.0;
  for (int c = 0; c < 8; ++c) value += N[c] * v[c];
  if (gradient) {
    const HexShapeGradients dN = trilinearShapeGradients(local);
    gradient->setZero();
    for (int c = 0; c < 8; ++c) *gradient += (s * v[c]) * dN.row(c).transpose();
  }
  return value;
}

SdfLattice sampleSdfLattice(const SignedDistanceField& sdf, const LatticeOptions& options, long long maxNodes) {
  const std::string name = sdf.name();
  const double h = options.cellSize;
  if (!(h > 0.0) || !std::isfinite(h))
    throw InputError(name + ": cell_size must be positive and finite (got " + std::to_string(h) + ")");
  if (!(options.snapFraction >= 0.0 && options.snapFraction < 0.5))
    throw InputError(name + ": snap fraction must be in [0, 0.5) (got " + std::to_string(options.snapFraction) + ")");
  if (options.snapDistance && !(*options.snapDistance >= 0.0 && *options.snapDistance < 0.5 * h)) {
    std::ostringstream s;
    s << name << ": snap distance must be in [0, cell_size / 2) = [0, " << 0.5 * h << ") (got " << *options.snapDistance
      << ")";
    throw InputError(s.str());
  }
  if (options.refinement < 1 || options.refinement > 16)
    throw InputError(name + ": refinement must be in [1, 16] (got " + std::to_string(options.refinement) + ")");
  const AxisBox bounds = sdf.bounds();
  if (!bounds.isFinite()) throw InputError(name + ": SDF bounds are not finite");
  if (bounds.isEmpty()) throw InputError(name + ": the SDF is empty (its bounds contain no point)");

  // One extra node beyond the bounds on each side: every boundary node is outside.
  Eigen::Vector3i lower, dims;
  for (int a = 0; a < 3; ++a) {
    const double lo = std::floor(bounds.min[a] / h) - 1.0;
    const double hi = std::ceil(bounds.max[a] / h) + 1.0;
    if (!(hi - lo + 1.0 <= 1e6) || std::abs(lo) > 1e9)
      throw InputError(name + ": cell_size " + std::to_string(h) + " is too small for the object's size");
    lower[a] = static_cast<int>(lo);
    dims[a] = static_cast<int>(hi - lo) + 1;
  }
  const double total = static_cast<double>(dims[0]) * dims[1] * dims[2];
  if (total > static_cast<double>(maxNodes)) {
    std::ostringstream s;
    s << name << ": cell_size " << h << " is too small: it needs a lattice of " << dims[0] << " x " << dims[1] << " x "
      << dims[2] << " nodes (limit " << maxNodes << "); use a larger cell_size";
    throw InputError(s.str());
  }
  std::vector<double> phi(static_cast<size_t>(total));
  const double snap = options.snapDistance ? *options.snapDistance : options.snapFraction * h;
  size_t n = 0;
  for (int k = 0; k < dims[2]; ++k)
    for (int j = 0; j < dims[1]; ++j)
      for (int i = 0; i < dims[0]; ++i, ++n) phi[n] = sampleValue(sdf, Vec3(lower[0] + i, lower[1] + j, lower[2] + k) * h, snap);
  SdfLattice lattice(h, lower, dims, std::move(phi), name);

  const int s = options.refinement;
  if (s == 1) return lattice;
  // Sub-lattice samples of boundary cells. Positions come from global fine-lattice
  // integers so cells sharing a face sample it at bit-identical points; samples on the
  // cell's corners are the node values themselves.
  const double fine = h / s;
  const double uniformSign = 0.5 * std::sqrt(3.0) * h * (1.0 + 1e-9);
  std::vector<long long> cells;
  std::vector<double> samples;
  const Eigen::Vector3i cd = lattice.cellDims();
  for (int k = 0; k < cd[2]; ++k)
    for (int j = 0; j < cd[1]; ++j)
      for (int i = 0; i < cd[0]; ++i) {
        // phi is 1-Lipschitz and every point of the cell lies within sqrt(3)/2 h of a
        // corner: corners all beyond that distance on one side prove a uniform sign.
        const std::array<double, 8> corners = lattice.cellValues(i, j, k);
        const double lowest = *std::min_element(corners.begin(), corners.end());
        const double highest = *std::max_element(corners.begin(), corners.end());
        if (lowest > uniformSign || highest < -uniformSign) continue;
        cells.push_back(lattice.cell(i, j, k));
        for (int c = 0; c <= s; ++c)
          for (int b = 0; b <= s; ++b)
            for (int a = 0; a <= s; ++a) {
              if ((a == 0 || a == s) && (b == 0 || b == s) && (c == 0 || c == s)) {
                samples.push_back(lattice.phi(i + a / s, j + b / s, k + c / s));
                continue;
              }
              const Vec3 X(static_cast<double>(static_cast<long long>(s) * (lower[0] + i) + a),
                           static_cast<double>(static_cast<long long>(s) * (lower[1] + j) + b),
                           static_cast<double>(static_cast<long long>(s) * (lower[2] + k) + c));
              samples.push_back(sampleValue(sdf, X * fine, snap));
            }
      }
  lattice.setRefinedSamples(s, std::move(cells), std::move(samples));
  return lattice;
}

}  // namespace softfit
