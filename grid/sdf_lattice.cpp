#include "grid/sdf_lattice.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

#include "forward/errors.h"
#include "grid/trilinear_hex.h"

namespace softfit {

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

double SdfLattice::interpolate(const Vec3& X) const {
  int cell[3];
  double t[3];
  for (int a = 0; a < 3; ++a) {
    const double u = X[a] / h_ - lower_[a];
    if (!(u >= 0.0 && u <= dims_[a] - 1)) return std::numeric_limits<double>::infinity();
    cell[a] = std::min(static_cast<int>(std::floor(u)), dims_[a] - 2);
    t[a] = u - cell[a];
  }
  const std::array<double, 8> v = cellValues(cell[0], cell[1], cell[2]);
  const auto N = trilinearShapeValues(Vec3(t[0], t[1], t[2]));
  double value = 0.0;
  for (int c = 0; c < 8; ++c) value += N[c] * v[c];
  return value;
}

SdfLattice sampleSdfLattice(const SignedDistanceField& sdf, const LatticeOptions& options, long long maxNodes) {
  const std::string name = sdf.name();
  const double h = options.cellSize;
  if (!(h > 0.0) || !std::isfinite(h))
    throw InputError(name + ": cell_size must be positive and finite (got " + std::to_string(h) + ")");
  if (!(options.snapFraction >= 0.0 && options.snapFraction < 0.5))
    throw InputError(name + ": snap fraction must be in [0, 0.5) (got " + std::to_string(options.snapFraction) + ")");
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
    s << name << ": cell_size " << h << " needs a lattice of " << dims[0] << " x " << dims[1] << " x " << dims[2]
      << " nodes (limit " << maxNodes << "); use a larger cell_size";
    throw InputError(s.str());
  }
  std::vector<double> phi(static_cast<size_t>(total));
  const double snap = options.snapFraction * h;
  size_t n = 0;
  for (int k = 0; k < dims[2]; ++k)
    for (int j = 0; j < dims[1]; ++j)
      for (int i = 0; i < dims[0]; ++i, ++n) {
        const Vec3 X = Vec3(lower[0] + i, lower[1] + j, lower[2] + k) * h;
        double v = sdf.value(X);
        if (!std::isfinite(v)) {
          std::ostringstream s;
          s << name << ": SDF value at (" << X.transpose() << ") is not finite";
          throw InputError(s.str());
        }
        if (std::abs(v) < snap) v = 0.0;
        phi[n] = v;
      }
  return SdfLattice(h, lower, dims, std::move(phi), name);
}

}  // namespace softfit
