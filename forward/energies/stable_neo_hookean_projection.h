#pragma once
// Projected-Newton element Hessians of the stable neo-Hookean material from its
// closed-form eigensystem (stableNeoHookeanEigensystem): per quadrature point
// C = Q filter(L) Q^T (9x9, PSD after clamp/abs), element Hessian sum_q w_q B^T C B.
// Filtering happens on dP/dF (9 eigenvalues, no iterative eigensolver) rather than on
// the 12x12 element matrix (ElasticEnergy::addHessian), as in Smith et al. / Chen et al.
#include "forward/energies/elastic_energy.h"

namespace softfit {

// dP/dF with its eigenvalues filtered (None: the exact dP/dF, reassembled).
Mat9 filteredStableNeoHookeanDerivative(const Mat3& F, const LameParameters& p, EigenvalueFilter filter, double eps);

// Adds the filtered element Hessians at x. The energy's material must be
// StableNeoHookean (std::invalid_argument otherwise).
void addStableNeoHookeanProjectedHessian(const ElasticEnergy& energy, const VecX& x, BlockAssembler& H,
                                         EigenvalueFilter filter, double eps);

}  // namespace softfit
