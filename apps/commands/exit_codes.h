#pragma once
// The exit-code contract of the softfit binary (README, Usage) and the top-level safety
// net that maps any exception escaping a command to a clear message and one of them.
#include <CLI/CLI.hpp>

namespace softfit::apps {

enum ExitCode : int {
  kExitSuccess = 0,
  kExitUsage = 1,          // unknown option, missing argument (also: gradcheck failed)
  kExitBadInput = 2,       // a file or value the user supplied; the message names it
  kExitSolveFailed = 3,    // a numerical solve failed
  kExitInternalError = 4,  // an unexpected exception: a bug, the message says what escaped
};

// Call only inside a catch block: rethrows the exception in flight, prints a message
// for it on stderr (CLI11's own text for parse errors, help on stdout) and returns its
// exit code. CLI11's own codes (104-114) never escape: an option value that is malformed
// or out of its range is kExitBadInput, any other parse error (unknown option, missing
// argument or subcommand) kExitUsage.
int reportEscapedException(CLI::App& app);

}  // namespace softfit::apps
