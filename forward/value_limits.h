#pragma once
// Magnitude limits on values read from input (issue 25): a value past them is bad input
// (exit 2, naming the field), not a solve that fails later (exit 3). Header-only, so
// every library may use it. The limits are far
// beyond any physical scene: stiffer than any material, faster than any projectile,
// larger than any capture in metres.
#include <cmath>
#include <sstream>
#include <string>

#include "forward/errors.h"

namespace softfit {

constexpr double kMaxYoungsModulus = 1e15;  // Pa (diamond: about 1.2e12)
constexpr double kMaxSpeed = 1e6;           // scene units per second, each velocity component
constexpr double kMaxAngularSpeed = 1e6;    // rad/s, each component
constexpr double kMaxCoordinate = 1e12;     // absolute value of a coordinate read from a file
constexpr double kMaxActivationEntry = 100; // a face muscle activation entry (a stretch factor)

// Throws InputError("FIELD = VALUE: must be finite with magnitude at most LIMIT") unless
// value is finite and |value| <= limit.
inline void requireMagnitude(double value, double limit, const std::string& field) {
  if (std::isfinite(value) && std::abs(value) <= limit) return;
  std::ostringstream msg;
  msg << field << " = " << value << ": must be finite with magnitude at most " << limit;
  throw InputError(msg.str());
}

}  // namespace softfit
