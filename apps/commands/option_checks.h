#pragma once
// CLI11 validators for numeric options. A value that fails is bad input (exit 2, see
// exit_codes.h) whose message names the option and says what is allowed, e.g.
// "--steps: must be an integer >= 0, got -5"; numbers are parsed strictly (the whole
// token, no trailing junk) and must be finite.
#include <CLI/CLI.hpp>

namespace softfit::apps {

CLI::Validator integerAtLeast(long long minimum);
CLI::Validator integerBetween(long long minimum, long long maximum);
CLI::Validator numberAtLeast(double minimum);  // finite and >= minimum
CLI::Validator numberAbove(double minimum);    // finite and > minimum
CLI::Validator numberBetween(double minimum, double maximum);  // finite and in [minimum, maximum]

}  // namespace softfit::apps
