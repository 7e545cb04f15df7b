#pragma once
// truth.json next to a synthetic capture: the parameter values it was made with, so a
// fit can report recovered vs true values.
#include <map>
#include <string>

namespace softfit {

void writeGroundTruth(const std::string& path, const std::map<std::string, double>& values);
// Empty when the file does not exist; InputError naming the file when it is malformed.
std::map<std::string, double> readGroundTruth(const std::string& path);

// truth.json only feeds reports: read when a run starts, and a bad one (malformed, a
// FIFO, a folder) becomes a warning (the run goes on without the true values) instead of
// an error after the work.
struct OptionalGroundTruth {
  std::map<std::string, double> values;  // empty when absent or bad
  std::string warning;                   // why a file that exists was not used; empty otherwise
};
OptionalGroundTruth readOptionalGroundTruth(const std::string& path);

}  // namespace softfit
