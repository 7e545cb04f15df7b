#pragma once
// The independent refits of one parametric-bootstrap step (`softfit fit --bootstrap-refits
// M`): refit j of step k fits a capture rendered with its own noise seed, and the step's
// re-estimate is the mean of the refits' results. Both depend only on (k, j) and on the
// refits' results in refit order, never on which process ran a refit or in what order,
// so the step is the same bits for any number of MPI ranks.
#include <cstdint>
#include <vector>

#include "optim/optimizer.h"

namespace softfit::apps {

// The noise seed of refit `refit` of bootstrap step `step` (both 0-based) of `steps`:
// seed + step + refit * steps, distinct for every (step, refit); refit 0 keeps the seed
// a step had before there were several refits (seed + step).
std::uint64_t bootstrapNoiseSeed(std::uint64_t seed, int steps, int step, int refit);

struct RefitMean {
  VecX point;       // mean of the used refits' points (internal coordinates)
  int used = 0;     // refits averaged
  int failed = 0;   // refits whose search hit a failed forward solve
  bool allFailed = false;  // every refit did: `point` is the mean of their best points so far
};

// The mean of the refits' best results (one per refit, in refit order), summed in that
// order: of the refits without a failed forward solve, or, when every refit had one, of
// all of them (their best points so far; allFailed says so). Throws InputError for no
// refits or points of different sizes.
RefitMean combineRefits(const std::vector<OptimizationResult>& refits);

}  // namespace softfit::apps
