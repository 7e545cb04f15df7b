#include "apps/commands/bootstrap_refits.h"

#include <string>

#include "forward/errors.h"

namespace softfit::apps {

std::uint64_t bootstrapNoiseSeed(std::uint64_t seed, int steps, int step, int refit) {
  return seed + static_cast<std::uint64_t>(step) + static_cast<std::uint64_t>(refit) * static_cast<std::uint64_t>(steps);
}

RefitMean combineRefits(const std::vector<OptimizationResult>& refits) {
  if (refits.empty()) throw InputError("bootstrap: a step needs at least one refit");
  RefitMean mean;
  for (const OptimizationResult& r : refits) mean.failed += r.solveFailed;
  mean.allFailed = mean.failed == static_cast<int>(refits.size());
  for (const OptimizationResult& r : refits) {
    if (r.solveFailed && !mean.allFailed) continue;
    if (mean.used > 0 && r.point.size() != mean.point.size())
      throw InputError("bootstrap: the refits' re-estimates have different sizes");
    // The first point as it is (one refit: its point, bit for bit), then in refit order.
    mean.point = mean.used == 0 ? VecX(r.point) : VecX(mean.point + r.point);
    ++mean.used;
  }
  if (mean.used > 1) mean.point /= static_cast<double>(mean.used);
  return mean;
}

}  // namespace softfit::apps
