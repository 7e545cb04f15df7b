#pragma once
// The element abstraction shared by tets and cut cells (docs/theory.rst, section 1):
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
// Written with scalars: the same products and sums in the same order as
// F += x_a dN_a/dX^T, without the 3-vector temporaries whose partial stores stall
// store-to-load forwarding (this loop is the hot path of every element evaluation).
inline Mat3 deformationGradient(const Element& e, const QuadraturePoint& q, const VecX& x) {
  Mat3 F = Mat3::Zero();
  for (int a = 0; a < e.nodeCount(); ++a) {
    const double* xa = x.data() + 3 * e.nodes[a];
    for (int j = 0; j < 3; ++j) {
      const double g = q.dNdX(a, j);
      for (int k = 0; k < 3; ++k) F(k, j) += xa[k] * g;
    }
  }
  return F;
}

// B = dN^T kron I3 maps the element's node positions to vec(F) (column-major;
// dF(k, j) / dx(a, k) = dN_a/dX_j). Both helpers use its sparsity. N: the node count
// (compile time).
//
// Out += weight B^T M for a 9-row M: Out(3a + k, :) += w sum_j dN(a, j) M(k + 3j, :).
template <int N, typename Gradients, typename Rows9, typename Result>
void addShapeTransposeProduct(const Gradients& dNdX, double weight, const Rows9& M, Result& out) {
  for (int a = 0; a < N; ++a)
    out.template middleRows<3>(3 * a).noalias() += (weight * dNdX(a, 0)) * M.template topRows<3>() +
                                                   (weight * dNdX(a, 1)) * M.template middleRows<3>(3) +
                                                   (weight * dNdX(a, 2)) * M.template bottomRows<3>();
}

// H += weight B^T C B for C = dP/dF (9 x 9): one quadrature point's contribution to the
// element Hessian. CB(r, 3b + l) = sum_m C(r, l + 3m) dN(b, m), then B^T (CB): a third of
// the dense product's flops.
template <int N, typename Gradients, typename Hessian>
void addShapeSandwich(const Gradients& dNdX, double weight, const Mat9& C, Hessian& H) {
  Eigen::Matrix<double, 9, 3 * N> CB;
  for (int b = 0; b < N; ++b)
    CB.template middleCols<3>(3 * b).noalias() = C.template middleCols<3>(0) * dNdX(b, 0) +
                                                 C.template middleCols<3>(3) * dNdX(b, 1) +
                                                 C.template middleCols<3>(6) * dNdX(b, 2);
  addShapeTransposeProduct<N>(dNdX, weight, CB, H);
}

}  // namespace softfit
