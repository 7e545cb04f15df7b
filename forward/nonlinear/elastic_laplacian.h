#pragma once
// The projective-dynamics Laplacian L = sum_e sum_q w_q k_e (G_q G_q^T kron I3), G_q the
// rest shape-function gradients (nodes x 3): the Hessian of sum_e k_e/2 w ||F - R||^2 for
// fixed R. Liu et al. 2017 use M/h^2 + L as the initial L-BFGS matrix with k fitted to
// the material; PD uses it as its constant global matrix.
#include "forward/energies/physical_model.h"

namespace softfit {

// k for one element: 2 mu for ARAP (exact PD weight of mu ||F - R||^2), otherwise the
// small-strain uniaxial-strain modulus 2 mu + lambda (Liu: corotated 2 mu + lambda).
double laplacianStiffness(MaterialModel model, const LameParameters& p);

// k of projective dynamics (the weight of its constant global matrix):
//   ARAP       mu ||F - R||^2: k = 2 mu, the exact PD weight; the quadratic surrogate with
//              R fixed majorizes the energy (||F - polar(F)|| <= ||F - R||), so full
//              local/global steps descend monotonically.
//   corotated  mu ||F - R||^2 + lambda/2 (J - 1)^2: k = 2 mu + 3 lambda, which bounds the
//              rest Hessian (lambda tr(dF)^2 <= 3 lambda ||dF||^2); (J - 1)^2 is cubic in F,
//              so no constant quadratic majorizes it everywhere and the global step is
//              line-searched (PD as quasi-Newton with a constant Hessian, Liu et al. 2017).
// Throws InputError for materials without a projective form.
double projectiveDynamicsStiffness(MaterialModel model, const LameParameters& p);

enum class LaplacianWeights { Liu, ProjectiveDynamics };

// L over the model's elements, in the model's block pattern, times `scale`.
SparseMatrix elasticLaplacian(const PhysicalModel& model, double scale = 1.0,
                              LaplacianWeights weights = LaplacianWeights::Liu);

}  // namespace softfit
