#pragma once
// Magnitude limits on values read from input (issue 25): a value past them is bad input
// (exit 2, naming the field), not a solve that fails later (exit 3). Header-only, so
// every library may use it. The limits are far
// beyond any physical scene: stiffer than any material, faster than any projectile,
// larger than any capture in metres.
#include <charconv>
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
constexpr double kMaxDensity = 1e6;         // kg/m^3 (osmium: 22,590)
// A time step or the time between capture frames (s): from a 1 GHz sensor to 1000 s.
constexpr double kMinTimeStep = 1e-9, kMaxTimeStep = 1e3;

// Shortest representation that round-trips ("0.7", not "0.69999999999999996"; "nan", "inf").
inline std::string formatValue(double value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  char buffer[64];
  const auto result = std::to_chars(buffer, buffer + sizeof(buffer), value);
  return std::string(buffer, result.ptr);
}

// The range of one kind of physical value: every reader and writer of that value (the
// scene reader, the fit's parameters, the CLI's and Python's start values, reconstruct's
// scene writer) checks it with requireInRange, so each refuses what the others refuse,
// with one message.
struct ValueRange {
  double lower, upper;
  bool lowerOpen = false, upperOpen = false;
  bool contains(double v) const {
    return (lowerOpen ? v > lower : v >= lower) && (upperOpen ? v < upper : v <= upper);
  }
  // "[1e-06, 1e+15]", "(-1, 0.5)".
  std::string text() const {
    return (lowerOpen ? "(" : "[") + formatValue(lower) + ", " + formatValue(upper) + (upperOpen ? ")" : "]");
  }
};

// Young's modulus (Pa): from 1 micropascal (softer than any gel) to kMaxYoungsModulus.
constexpr ValueRange kYoungsModulusRange{1e-6, kMaxYoungsModulus};
constexpr ValueRange kPoissonRatioRange{-1.0, 0.5, true, true};
constexpr ValueRange kDensityRange{1e-6, kMaxDensity};          // kg/m^3
constexpr ValueRange kDampingRange{0.0, 1e6};                   // Rayleigh alpha1 (1/s), alpha2 (s)
constexpr ValueRange kGravityRange{-1e6, 1e6};                  // each component (m/s^2)
constexpr ValueRange kSpeedRange{-kMaxSpeed, kMaxSpeed};        // each velocity component
constexpr ValueRange kAngularSpeedRange{-kMaxAngularSpeed, kMaxAngularSpeed};
constexpr ValueRange kCoordinateRange{-kMaxCoordinate, kMaxCoordinate};  // positions, plane offsets
constexpr ValueRange kAngleRange{-1e3, 1e3};                    // angles in radians (any turn, finite)

// Throws InputError("FIELD = VALUE: must lie in RANGE") unless value lies in range (NaN never does).
inline void requireInRange(double value, const ValueRange& range, const std::string& field) {
  if (!range.contains(value)) throw InputError(field + " = " + formatValue(value) + ": must lie in " + range.text());
}

// Throws InputError("FIELD = VALUE: must be finite with magnitude at most LIMIT") unless
// value is finite and |value| <= limit.
inline void requireMagnitude(double value, double limit, const std::string& field) {
  if (std::isfinite(value) && std::abs(value) <= limit) return;
  std::ostringstream msg;
  msg << field << " = " << value << ": must be finite with magnitude at most " << limit;
  throw InputError(msg.str());
}

// Throws InputError("FIELD = VALUE: must be a time step in [1e-09, 1000] s") unless it is.
inline void requireTimeStep(double value, const std::string& field) {
  if (value >= kMinTimeStep && value <= kMaxTimeStep) return;
  std::ostringstream msg;
  msg << field << " = " << value << ": must be a time step in [" << kMinTimeStep << ", " << kMaxTimeStep
      << "] seconds";
  throw InputError(msg.str());
}

}  // namespace softfit
