#pragma once
// Parametric-bootstrap bias correction of an estimator (Efron & Tibshirani, An
// Introduction to the Bootstrap, 1993, ch. 10; iterated: indirect inference, Gourieroux,
// Monfort & Renault 1993; MacKinnon & Smith 1998). For fits whose cost is biased in a way
// no cost correction removes exactly (e.g. point clouds with noise around sharp edges:
// point_surface_cost.h), given
//   estimate       q^ = the fit of the real data, and
//   reestimate(q)  the same fit of synthetic data generated at parameters q by the same
//                  observation process (same cameras, fresh noise of the same sigma),
// returns q_K of
//   q_0 = q^,   q_{k+1} = q_k + (q^ - reestimate(q_k)),
// i.e. q_1 = q^ - (bias estimated at q^), and further steps solve reestimate(q) = q^
// (which removes the bias also where it changes with q). Works in any coordinates; use
// the fit's internal ones so that bounds hold. Each step costs one fit.
#include <functional>
#include <vector>

#include "forward/types.h"

namespace softfit {

struct BootstrapStep {
  VecX point;       // q_k
  VecX reestimate;  // reestimate(q_k)
};

// `iterations` >= 0 steps (0 returns the estimate). `history`, when non-null, receives
// every step. Throws InputError for negative iterations or a reestimate of the wrong size.
VecX bootstrapBiasCorrection(const VecX& estimate, const std::function<VecX(const VecX& q)>& reestimate,
                             int iterations, std::vector<BootstrapStep>* history = nullptr);

}  // namespace softfit
