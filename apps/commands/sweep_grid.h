#pragma once
// The parameter points of `softfit sweep`: a full grid from
//   --grid E=1e3:1e4:16,nu=0.2:0.45:16   (name=low:high:count, evenly spaced, ends included)
// or, with --lhs N, a Latin hypercube of N points in the boxes of
//   --grid E=1e3:1e4,nu=0.2:0.45         (name=low:high)
// Grid points are ordered with the first parameter slowest (row-major).
#include <cstdint>
#include <string>
#include <vector>

#include "forward/types.h"

namespace softfit::apps {

struct SweepAxis {
  std::string name;
  double low = 0.0, high = 0.0;
  int count = 0;  // grid points along the axis (0 with --lhs)
};

// Syntax only (names are checked against the parameter table by the caller). Throws
// InputError naming --grid and the offending item: a missing '=', a bad number, a count
// that is not an integer >= 1, low > high, low != high with count 1, low = high with
// count > 1, a name given twice, more than 1e6 points; with `latinHypercube`, a count.
std::vector<SweepAxis> parseSweepGrid(const std::string& text, bool latinHypercube);

// Every grid point (first axis slowest).
std::vector<VecX> gridPoints(const std::vector<SweepAxis>& axes);

// N points, each axis cut into N equal strata with one point per stratum at a random
// place in it, the strata of the axes matched by random permutations. Deterministic
// for a seed (own generator arithmetic, not the standard library's distributions).
std::vector<VecX> latinHypercubePoints(const std::vector<SweepAxis>& axes, int count, std::uint64_t seed);

}  // namespace softfit::apps
