#include "forward/energies/stable_neo_hookean_projection.h"

#include <cmath>
#include <stdexcept>

#include "forward/materials/stable_neo_hookean_material.h"

namespace softfit {

Mat9 filteredStableNeoHookeanDerivative(const Mat3& F, const LameParameters& p, EigenvalueFilter filter, double eps) {
  MaterialEigensystem eig = stableNeoHookeanEigensystem(F, p);
  for (int i = 0; i < 9; ++i) {
    double& l = eig.values[i];
    if (filter == EigenvalueFilter::Clamp) l = std::max(l, eps);
    else if (filter == EigenvalueFilter::Abs) l = std::abs(l);
  }
  const Mat9& Q = eig.vectors;
  Mat9 C = (Q * eig.values.asDiagonal()).lazyProduct(Q.transpose());
  return 0.5 * (C + C.transpose());
}

void addStableNeoHookeanProjectedHessian(const ElasticEnergy& energy, const VecX& x, BlockAssembler& H,
                                         EigenvalueFilter filter, double eps) {
  if (energy.model() != MaterialModel::StableNeoHookean)
    throw std::invalid_argument("addStableNeoHookeanProjectedHessian: material is not stable neo-Hookean");
  const auto& elements = energy.elements();
  const auto& lame = energy.parameters();
  MatX B, He;
  for (size_t e = 0; e < elements.size(); ++e) {
    const Element& el = elements[e];
    const int n = el.nodeCount();
    He.setZero(3 * n, 3 * n);
    B.setZero(9, 3 * n);
    for (const auto& q : el.quadrature) {
      const Mat9 C = filteredStableNeoHookeanDerivative(deformationGradient(el, q, x), lame[e], filter, eps);
      // vec(F) = B x_e: dF(k, j) / dx(a, k) = dN_a/dX_j (column-major vec).
      for (int a = 0; a < n; ++a)
        for (int j = 0; j < 3; ++j)
          for (int k = 0; k < 3; ++k) B(k + 3 * j, 3 * a + k) = q.dNdX(a, j);
      He.noalias() += q.weight * B.transpose() * (C * B);
    }
    for (int b = 0; b < n; ++b)
      for (int a = 0; a < n; ++a) H.addBlock(el.nodes[a], el.nodes[b], He.block<3, 3>(3 * a, 3 * b));
  }
}

}  // namespace softfit
