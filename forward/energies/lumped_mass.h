#pragma once
#include <vector>

#include "forward/element.h"

namespace softfit {

// Row-sum lumped mass per dof (size 3N): m_a = sum_e rho_e sum_q w_q N_a(q).
// `density` holds one value per element.
VecX lumpedMass(const std::vector<Element>& elements, int nodeCount, const VecX& density);

// Adjoint: given dL/dm per dof (size 3N), adds dL/d(density_e) into densityBar.
void addDensityAdjoint(const std::vector<Element>& elements, const VecX& massBar, VecX& densityBar);

}  // namespace softfit
