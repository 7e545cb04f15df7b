#pragma once
// Element kernels shared by the elastic energy (elastic_energy.cpp, its adjoint
// elastic_energy_adjoint.cpp) and the Rayleigh damping stiffness (rayleigh_damping.cpp):
// element Hessians and their parallel assembly in element order, the rotated rest
// stiffness, and the derivatives through an element's polar frame. Internal to
// forward/energies.
#include <algorithm>
#include <vector>

#include "forward/element.h"
#include "forward/materials/material.h"
#include "forward/math/parallel_ranges.h"
#include "forward/math/polar_decomposition.h"
#include "forward/math/psd_projection.h"
#include "forward/solvers/block_sparse_pattern.h"

namespace softfit::element_kernels {

// vec(R M) = blockdiag(R, R, R) vec(M) for column-major vec.
inline Mat9 leftRotation(const Mat3& R) {
  Mat9 B = Mat9::Zero();
  for (int j = 0; j < 3; ++j) B.block<3, 3>(3 * j, 3 * j) = R;
  return B;
}

// Element Hessian with compile-time node count N (tets: 4, hex cells: 8) or dynamic.
// vec(F) = B x_e with dF(k, j) / dx(a, k) = dN_a/dX_j, so H = sum_q w_q B^T C_q B with
// C_q = dP/dF at the quadrature point's deformation gradient `F(q)` (in frame R).
template <int N>
using ElementMatrix = Eigen::Matrix<double, N == Eigen::Dynamic ? Eigen::Dynamic : 3 * N,
                                    N == Eigen::Dynamic ? Eigen::Dynamic : 3 * N>;

template <int N, typename DeformationAt>
ElementMatrix<N> elementHessianImpl(const Element& el, const Material& material, const LameParameters& params,
                                    const Mat3& R, bool rotate, DeformationAt F) {
  const int n = el.nodeCount();
  using BMatrix = Eigen::Matrix<double, 9, N == Eigen::Dynamic ? Eigen::Dynamic : 3 * N>;
  const Mat9 Rl = leftRotation(R);
  ElementMatrix<N> H = ElementMatrix<N>::Zero(3 * n, 3 * n);
  BMatrix B = BMatrix::Zero(9, 3 * n);
  for (const auto& q : el.quadrature) {
    Mat9 C = material.firstPiolaDerivative(R.transpose() * F(q), params);
    if (rotate) C = (Rl.lazyProduct(C)).lazyProduct(Rl.transpose());
    if constexpr (N != Eigen::Dynamic) {
      addShapeSandwich<N>(q.dNdX, q.weight, C, H);  // B's sparsity: a third of the flops
      continue;
    }
    for (int a = 0; a < n; ++a)
      for (int j = 0; j < 3; ++j)
        for (int k = 0; k < 3; ++k) B(k + 3 * j, 3 * a + k) = q.dNdX(a, j);
    // Small fixed sizes: coefficient-based products beat the blocked GEMM kernel.
    const BMatrix CB = C.lazyProduct(B);
    H.noalias() += q.weight * B.transpose().lazyProduct(CB);
  }
  return H;
}

template <int N>
void filterInPlace(ElementMatrix<N>& He, EigenvalueFilter filter, double filterEpsilon) {
  if (filter == EigenvalueFilter::None) return;
  if constexpr (N == Eigen::Dynamic) projectToPsd(Eigen::Ref<MatX>(He), filter, filterEpsilon);
  else projectToPsd<3 * N>(He, filter, filterEpsilon);
}

// The element's (filtered) Hessian, dispatched on its node count to the fixed-size kernels.
template <typename DeformationAt>
void filteredElementHessian(const Element& el, const Material& material, const LameParameters& params, const Mat3& R,
                            bool rotate, DeformationAt F, EigenvalueFilter filter, double eps, MatX& out) {
  switch (el.nodeCount()) {
    case 4: {
      ElementMatrix<4> He = elementHessianImpl<4>(el, material, params, R, rotate, F);
      filterInPlace<4>(He, filter, eps);
      out = He;
      break;
    }
    case 8: {
      ElementMatrix<8> He = elementHessianImpl<8>(el, material, params, R, rotate, F);
      filterInPlace<8>(He, filter, eps);
      out = He;
      break;
    }
    default:
      out = elementHessianImpl<Eigen::Dynamic>(el, material, params, R, rotate, F);
      filterInPlace<Eigen::Dynamic>(out, filter, eps);
  }
}

// positions: the element's cached block positions (b-major), or null to search.
inline void addElementBlocks(const Element& el, const MatX& He, BlockAssembler& H, const int* positions) {
  const int n = el.nodeCount();
  if (positions) {
    for (int b = 0; b < n; ++b)
      for (int a = 0; a < n; ++a) H.addBlockAt(positions[b * n + a], el.nodes[b], He.block<3, 3>(3 * a, 3 * b));
    return;
  }
  for (int b = 0; b < n; ++b)
    for (int a = 0; a < n; ++a) H.addBlock(el.nodes[a], el.nodes[b], He.block<3, 3>(3 * a, 3 * b));
}

// Elements per batch of the parallel Hessian loops: each batch is one parallel region
// (~0.1 ms to start with std::threads, less with OpenMP's waiting workers), and its
// scratch memory is batch x (one element's result).
constexpr int kHessianBatch = 4096;   // up to 24 x 24 doubles per element

// Element Hessians computed in parallel (`hessian(e, out)`), added to H in element order;
// positions(e): element e's cached block positions or null.
template <typename ElementHessian, typename Positions>
void addElementHessians(const std::vector<Element>& elements, int threads, const ElementHessian& hessian,
                        const Positions& positions, BlockAssembler& H) {
  const int n = static_cast<int>(elements.size());
  std::vector<MatX> blocks(std::min(n, kHessianBatch));
  computeInParallelScatterInOrder(
      n, std::max<int>(1, blocks.size()), threads, [&](int e, int slot) { hessian(e, blocks[slot]); },
      [&](int e, int slot) { addElementBlocks(elements[e], blocks[slot], H, positions(e)); });
}

// blockdiag(R) K0 blockdiag(R)^T, block by block.
inline void rotatedStiffness(const MatX& K0, const Mat3& R, MatX& out) {
  out.resize(K0.rows(), K0.cols());
  const int n = static_cast<int>(K0.rows() / 3);
  for (int b = 0; b < n; ++b)
    for (int a = 0; a < n; ++a) out.block<3, 3>(3 * a, 3 * b) = R * K0.block<3, 3>(3 * a, 3 * b) * R.transpose();
}


// ---- Adjoint side. ----

// d/dR of <R^T Lam, C(R^T G)> for the small-strain tensor C (Lame mu, la), minus
// `offset` * C(I) (offset = 1 for the elastic energy, whose strain is R^T F - I;
// 0 for the damping stiffness acting on a displacement gradient G).
inline Mat3 frameGradient(const Mat3& Lam, const Mat3& G, const Mat3& R, const LameParameters& p, double offset) {
  const double trL = (R.transpose() * Lam).trace();
  const double trG = (R.transpose() * G).trace();
  return p.mu * (Lam * R.transpose() * G + G * R.transpose() * Lam) + p.lambda * (trL * G + trG * Lam) -
         offset * (2.0 * p.mu + 3.0 * p.lambda) * Lam;
}

// Chains dS = d(scalar)/dR of element e's frame R = polar(F_avg(xFrame)) to xFrame.
inline void chainFrameToPositions(const Element& el, const Mat3& Favg, const Mat3& dR, double scale, VecX& frameBar) {
  const Vec9 dF = polarRotationDerivative(Favg).transpose() * flatten(dR);
  const Mat3 dFm = unflatten(dF);
  double volume = 0.0;
  for (const auto& q : el.quadrature) volume += q.weight;
  for (const auto& q : el.quadrature)
    for (int a = 0; a < el.nodeCount(); ++a)
      frameBar.segment<3>(3 * el.nodes[a]) += scale * (q.weight / volume) * (dFm * q.dNdX.row(a).transpose());
}

}  // namespace softfit::element_kernels
