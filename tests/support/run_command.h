#pragma once
// Runs the softfit binary with arguments and captures its exit code and output; reads
// a file's bytes for output comparisons.
#include <sys/wait.h>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>

namespace softfit::testing {

struct CommandResult {
  int exitCode;
  std::string output;
};

// A positive `timeoutSeconds` kills a run that hangs (exit code 124, as timeout(1)).
inline CommandResult runSoftfit(const std::string& arguments, int timeoutSeconds = 0) {
  const std::string limit = timeoutSeconds > 0 ? "timeout -k 5 " + std::to_string(timeoutSeconds) + " " : "";
  const std::string command = limit + std::string(SOFTFIT_BINARY) + " " + arguments + " 2>&1";
  FILE* pipe = popen(command.c_str(), "r");
  std::string output;
  char buffer[512];
  while (fgets(buffer, sizeof(buffer), pipe)) output += buffer;
  const int status = pclose(pipe);
  return {WEXITSTATUS(status), output};
}

// The whole file as bytes (empty when it cannot be read).
inline std::string fileBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

}  // namespace softfit::testing
