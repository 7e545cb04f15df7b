#pragma once
// The SDF sampled at the nodes of a regular lattice with spacing h, nodes at integer
// multiples of h (thesis convention), covering the SDF's bounds plus one node on every
// side. Values with |phi| < snapFraction * h are snapped to 0 so no cell holds an
// inside sliver thinner than that; snapDistance, when set, replaces the threshold by an
// absolute distance (the thesis convention: |phi| < 0.01 world units). Cells the surface may cross (not all corners
// farther than sqrt(3)/2 h from the surface on the same side; phi is 1-Lipschitz) are
// additionally sampled on an (s+1)^3 sub-lattice (s = refinement). These samples are
// the grid's "reference SDF": the cut-cell quadrature, the embedded surface and the
// contact points all use its piecewise-linear interpolant on the Kuhn tets of the
// (sub-)cells, which is consistent across shared faces, so the surface is closed.
#include <array>
#include <optional>
#include <string>
#include <vector>

#include "grid/cell_samples.h"
#include "grid/signed_distance_field.h"

namespace softfit {

struct LatticeOptions {
  double cellSize = 0.0;        // h > 0
  double snapFraction = 0.01;   // |phi| < snapFraction * h -> 0; 0 disables
  // Thesis convention: |phi| < snapDistance -> 0 in world units, whatever h (the thesis
  // snaps at 0.01). Set, it replaces snapFraction; must lie in [0, h / 2).
  std::optional<double> snapDistance;
  // Sub-cells per edge in boundary cells (1 = corners only, the plain Kuhn clipping).
  // The partial-cell volume error falls like 1 / refinement^2 (3: ~9x smaller).
  int refinement = 3;
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
  long long cell(int i, int j, int k) const {
    return i + static_cast<long long>(dims_[0] - 1) * (j + static_cast<long long>(dims_[1] - 1) * k);
  }
  Eigen::Vector3i nodeCoordinates(long long node) const;
  Vec3 position(int i, int j, int k) const {
    return Vec3(lower_[0] + i, lower_[1] + j, lower_[2] + k) * h_;
  }
  double phi(int i, int j, int k) const { return phi_[static_cast<size_t>(node(i, j, k))]; }
  double phi(long long node) const { return phi_[static_cast<size_t>(node)]; }
  const std::vector<double>& values() const { return phi_; }
  // Corner values of cell (i, j, k) (lower corner node (i, j, k)) in VTK hex order.
  std::array<double, 8> cellValues(int i, int j, int k) const;

  // Sub-lattice samples: refinement s, stored for the cells given to setRefinedSamples.
  int refinement() const { return refinement_; }
  bool isRefined(int i, int j, int k) const { return refinedSlot(cell(i, j, k)) >= 0; }
  // The refined samples of a cell when it has them, else its 8 corners (subdivision 1).
  CellSamples cellSamples(int i, int j, int k) const;
  // Samples along the lattice edge from node (i, j, k) to its +axis neighbour: s + 1 of
  // them when a refined cell contains the edge, else the 2 node values.
  std::vector<double> edgeSamples(int i, int j, int k, int axis) const;
  // Stores (s+1)^3 samples (x fastest) per listed cell; cells must be sorted ascending.
  void setRefinedSamples(int refinement, std::vector<long long> cells, std::vector<double> samples);

  // Interpolation of the finest samples at X (trilinear in the (sub-)cell); +infinity
  // outside the lattice.
  double interpolate(const Vec3& X) const;
  // The same interpolant in cell (i, j, k) at unit-cell coordinates t (trilinear in the
  // sub-cell containing t; t outside [0,1]^3 extrapolates the nearest sub-cell's
  // trilinear function). With `gradient`, also d value / dt.
  double interpolateInCell(int i, int j, int k, const Vec3& t, Vec3* gradient = nullptr) const;

 private:
  long long refinedSlot(long long cell) const;

  double h_;
  Eigen::Vector3i lower_;
  Eigen::Vector3i dims_;
  std::vector<double> phi_;
  std::string source_;
  int refinement_ = 1;
  std::vector<long long> refinedCells_;  // sorted cell ids
  std::vector<double> refinedSamples_;   // (s+1)^3 per refined cell
};

// Samples `sdf` on the lattice (and the sub-lattices of cells near the surface). InputError naming sdf.name() when cellSize <= 0 or not finite,
// snapFraction is outside [0, 0.5), snapDistance is outside [0, h / 2), refinement is outside [1, 16], the bounds are empty
// or not finite, the lattice would exceed `maxNodes` nodes, or a value is not finite.
SdfLattice sampleSdfLattice(const SignedDistanceField& sdf, const LatticeOptions& options,
                            long long maxNodes = 200000000);

}  // namespace softfit
