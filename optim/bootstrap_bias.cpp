#include "optim/bootstrap_bias.h"

#include <string>

#include "forward/errors.h"

namespace softfit {

VecX bootstrapBiasCorrection(const VecX& estimate, const std::function<VecX(const VecX& q)>& reestimate,
                             int iterations, std::vector<BootstrapStep>* history) {
  if (iterations < 0) throw InputError("bootstrap bias correction: iterations must be >= 0");
  VecX q = estimate;
  for (int k = 0; k < iterations; ++k) {
    const VecX r = reestimate(q);
    if (r.size() != estimate.size())
      throw InputError("bootstrap bias correction: the re-estimate has " + std::to_string(r.size()) +
                       " parameters, the estimate " + std::to_string(estimate.size()));
    if (history) history->push_back({q, r});
    q += estimate - r;
  }
  return q;
}

}  // namespace softfit
