#pragma once
// Running an external program (TetGen) without a shell.
#include <string>
#include <vector>

namespace softfit {

struct ProcessResult {
  int exitCode = -1;     // exit status when the program exited normally, else -1
  int signal = 0;        // terminating signal, 0 when it exited normally
  bool succeeded() const { return signal == 0 && exitCode == 0; }
  std::string describe() const;  // "exit code 3" / "killed by signal 6 (Aborted)"
};

// Runs argv[0] (searched in PATH when it has no '/') with the given arguments, stdout
// and stderr appended to `logPath`, and waits for it. Throws InputError when the
// program cannot be started.
ProcessResult runProcess(const std::vector<std::string>& argv, const std::string& logPath);

// Last `maxChars` characters of a text file ("" if it cannot be read).
std::string fileTail(const std::string& path, std::size_t maxChars);

}  // namespace softfit
