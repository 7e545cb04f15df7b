#pragma once
// The SDF sampled at the nodes of a regular lattice with spacing h, nodes at integer
// multiples of h (thesis convention), covering the SDF's bounds plus one node on every
// side. Values with |phi| < snapFraction * h are snapped to 0 (thesis: 0.01) so no
// cell holds an inside sliver thinner than that. This node data is the "reference SDF"
// of the grid: the cut-cell quadrature, the embedded surface and the contact points
// all use its piecewise-linear (Kuhn) interpolant.
#include <array>
#include <string>
#include <vector>

#include "grid/signed_distance_field.h"

namespace softfit {

struct LatticeOptions {
  double cellSize = 0.0;        // h > 0
  double snapFraction = 0.01;   // |phi| < snapFraction * h -> 0; 0 disables
};

class SdfLattice {
 public:
  SdfLattice(double cellSize, Eigen::Vector3i lower, Eigen::Vector3i nodeDims, std::vector<double> phi,
             std::string source);

  double cellSize() const { return h_; }
  // Integer coordinates of node (0, 0, 0): its position is lower * h.
  const Eigen::Vector3i& lower() const { return lower_; }
  const Eigen::Vector3i& nodeDims() const { return dims_; }
  Eigen::Vector3i cellDims() const { return dims_.array() - 1; }
  long long nodeCount() const { return static_cast<long long>(dims_[0]) * dims_[1] * dims_[2]; }
  const std::string& source() const { return source_; }

  long long node(int i, int j, int k) const { return i + static_cast<long long>(dims_[0]) * (j + static_cast<long long>(dims_[1]) * k); }
  Eigen::Vector3i nodeCoordinates(long long node) const;
  Vec3 position(int i, int j, int k) const {
    return Vec3(lower_[0] + i, lower_[1] + j, lower_[2] + k) * h_;
  }
  double phi(int i, int j, int k) const { return phi_[static_cast<size_t>(node(i, j, k))]; }
  double phi(long long node) const { return phi_[static_cast<size_t>(node)]; }
  const std::vector<double>& values() const { return phi_; }
  // Corner values of cell (i, j, k) (lower corner node (i, j, k)) in VTK hex order.
  std::array<double, 8> cellValues(int i, int j, int k) const;
  // Trilinear interpolation of the node values at X; +infinity outside the lattice.
  double interpolate(const Vec3& X) const;

 private:
  double h_;
  Eigen::Vector3i lower_;
  Eigen::Vector3i dims_;
  std::vector<double> phi_;
  std::string source_;
};

// Samples `sdf` on the lattice. InputError naming sdf.name() when cellSize <= 0 or not
// finite, snapFraction is outside [0, 0.5), the bounds are empty or not finite, the
// lattice would exceed `maxNodes` nodes, or a value is not finite.
SdfLattice sampleSdfLattice(const SignedDistanceField& sdf, const LatticeOptions& options,
                            long long maxNodes = 200000000);

}  // namespace softfit
