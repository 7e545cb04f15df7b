#include "grid/grid_contact_points.h"

namespace softfit {

std::vector<ContactPoint> edgeCrossingContactPoints(const CutCellGrid& grid) {
  const SdfLattice& lattice = grid.lattice();
  const Eigen::Vector3i dims = lattice.nodeDims();
  std::vector<ContactPoint> points;
  for (int a = 0; a < grid.nodeCount(); ++a) {
    const long long la = grid.latticeNodeOf(a);
    if (lattice.phi(la) == 0.0) points.push_back(ContactPoint{{a}, {1.0}});
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
        if (t >= 0.0) points.push_back(ContactPoint{{a, b}, {1.0 - t, t}});
      }
    }
  }
  return points;
}

}  // namespace softfit
