#pragma once
// The cost landscape of a parameter sweep as a PNG (softfit sweep): for two parameters
// a heat map of log10(cost) (grid cells, or dots for scattered points), for one a line
// plot of log10(cost); the lowest cost is marked with a white square, the truth (when
// known) with a red cross (heat map) or a red vertical line (line plot). Points whose
// evaluation failed are grey.
#include <map>
#include <string>
#include <vector>

#include "forward/types.h"

namespace softfit {

struct LandscapeData {
  std::vector<std::string> names;  // 1 or 2 parameters
  std::vector<VecX> points;        // physical values
  std::vector<double> costs;       // per point
  std::vector<bool> ok;            // false: the evaluation failed (cost unused)
  // Grid sweeps: points per axis (first axis slowest, as softfit sweep orders them);
  // empty for scattered points (Latin hypercube).
  std::vector<int> gridCounts;
  std::map<std::string, double> truth;  // known true values; may be empty
  // The axes' extent per parameter (e.g. the sampled box of a Latin hypercube); empty:
  // the points' own extent.
  std::vector<double> low, high;
};

// Throws InputError for other than 1 or 2 parameters, or naming `path` when it cannot
// be written.
void writeLandscapePlot(const std::string& path, const LandscapeData& data);

}  // namespace softfit
