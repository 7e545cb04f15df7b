#pragma once
// Error types. Every error message names the offending file and/or field so a user
// can fix the input without reading the code.
#include <stdexcept>
#include <string>

namespace softfit {

// Bad user input: missing or malformed file, invalid parameter, unknown JSON key.
class InputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A numerical solve failed (no convergence, non-finite values, indefinite system).
class SolveError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace softfit
