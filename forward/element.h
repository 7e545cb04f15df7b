#pragma once
// The element abstraction shared by tets and cut cells (DESIGN.md section 1):
// an element is a list of nodes plus quadrature points, each with a weight (volume)
// and the rest-configuration shape-function gradients dN/dX (nodes x 3).
// F_q = sum_i x_i dN_i/dX^T; elastic energy = sum_q w_q Psi(F_q).
#include <vector>

#include "forward/types.h"

namespace softfit {

constexpr int kMaxElementNodes = 8;

using ShapeGradients = Eigen::Matrix<double, Eigen::Dynamic, 3, Eigen::ColMajor, kMaxElementNodes, 3>;

using ShapeValues = Eigen::Matrix<double, Eigen::Dynamic, 1, Eigen::ColMajor, kMaxElementNodes, 1>;

struct QuadraturePoint {
  double weight = 0.0;     // integration weight (rest volume it represents)
  ShapeValues N;           // shape-function values at the point (lumped mass, body forces)
  ShapeGradients dNdX;     // rows: element nodes, columns: d/dX, d/dY, d/dZ
};

struct Element {
  std::vector<int> nodes;                    // global node indices (4 for tets, 8 for hex cells)
  std::vector<QuadraturePoint> quadrature;   // at least one point

  int nodeCount() const { return static_cast<int>(nodes.size()); }
  double restVolume() const {
    double v = 0.0;
    for (const auto& q : quadrature) v += q.weight;
    return v;
  }
};

// Deformation gradient at a quadrature point from flat node positions x.
inline Mat3 deformationGradient(const Element& e, const QuadraturePoint& q, const VecX& x) {
  Mat3 F = Mat3::Zero();
  for (int a = 0; a < e.nodeCount(); ++a) F += x.segment<3>(3 * e.nodes[a]) * q.dNdX.row(a);
  return F;
}

}  // namespace softfit
