// buildTetElements (declared in tet_mesh.h): linear-tet shape-function gradients.
#include <Eigen/LU>

#include "forward/mesh/tet_mesh.h"

namespace softfit {

std::vector<Element> buildTetElements(const TetMesh& mesh) {
  validateTetMesh(mesh);  // guarantees every Dm below is invertible
  std::vector<Element> elements(mesh.tetCount());
  for (int t = 0; t < mesh.tetCount(); ++t) {
    Element& e = elements[t];
    e.nodes = {mesh.tets(t, 0), mesh.tets(t, 1), mesh.tets(t, 2), mesh.tets(t, 3)};
    const Vec3 x0 = mesh.vertices.row(e.nodes[0]).transpose();
    Mat3 dm;
    for (int c = 0; c < 3; ++c) dm.col(c) = mesh.vertices.row(e.nodes[c + 1]).transpose() - x0;
    // Barycentric coordinates of nodes 1..3 are Dm^-1 (X - X0), so their gradients are
    // the rows of Dm^-1; node 0's is minus their sum (partition of unity).
    const Mat3 dmInv = dm.inverse();
    QuadraturePoint q;
    q.weight = dm.determinant() / 6.0;
    q.N = ShapeValues::Constant(4, 0.25);  // one-point rule at the centroid
    q.dNdX.resize(4, 3);
    q.dNdX.bottomRows(3) = dmInv;
    q.dNdX.row(0) = -dmInv.colwise().sum();
    e.quadrature.push_back(q);
  }
  return elements;
}

}  // namespace softfit
