#include "grid/grid_contact_points.h"

namespace softfit {

std::vector<ContactPoint> edgeCrossingContactPoints(const CutCellGrid& grid) {
  const SdfLattice& lattice = grid.lattice();
  const Eigen::Vector3i dims = lattice.nodeDims();
  std::vector<ContactPoint> points;
  for (int a = 0; a < grid.nodeCount(); ++a) {
    const long long la = grid.latticeNodeOf(a);
    const double phiA = lattice.phi(la);
    if (phiA == 0.0) points.push_back(ContactPoint{{a}, {1.0}});
    const Eigen::Vector3i ijk = lattice.nodeCoordinates(la);
    for (int axis = 0; axis < 3; ++axis) {
      if (ijk[axis] + 1 >= dims[axis]) continue;
      Eigen::Vector3i next = ijk;
      ++next[axis];
      const long long lb = lattice.node(next[0], next[1], next[2]);
      const double phiB = lattice.phi(lb);
      if (!((phiA < 0.0 && phiB > 0.0) || (phiA > 0.0 && phiB < 0.0))) continue;
      const int b = grid.nodeOfLatticeNode(lb);  // active: the edge touches an inside node
      const double s = phiA / (phiA - phiB);
      points.push_back(ContactPoint{{a, b}, {1.0 - s, s}});
    }
  }
  return points;
}

}  // namespace softfit
