#include "forward/mesh/temp_directory.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <string>

namespace softfit {
namespace {

namespace fs = std::filesystem;

// The id of a process that has exited (and been reaped): no process has it right now.
pid_t deadProcessId() {
  const pid_t child = ::fork();
  if (child == 0) ::_exit(0);
  ::waitpid(child, nullptr, 0);
  return child;
}

TEST(TempDirectory, RemovesTheFoldersOfKilledRunsOnly) {
  const std::string prefix = "softfit-temp-test-" + std::to_string(::getpid()) + "x";
  const fs::path base = fs::temp_directory_path();
  const fs::path dead = base / (prefix + std::to_string(deadProcessId()) + "-abc123");
  const fs::path live = base / (prefix + std::to_string(::getppid()) + "-abc123");  // the test runner's parent
  const fs::path other = base / (prefix + "notapid");
  for (const fs::path& p : {dead, live, other}) fs::create_directories(p / "inner");
  {
    TempDirectory dir(prefix);
    EXPECT_EQ(fs::path(dir.path()).filename().string().rfind(prefix + std::to_string(::getpid()) + "-", 0), 0u)
        << dir.path();
    EXPECT_TRUE(fs::is_directory(dir.path()));
    EXPECT_FALSE(fs::exists(dead));
    EXPECT_TRUE(fs::exists(live));
    EXPECT_TRUE(fs::exists(other));
  }
  for (const fs::path& p : {live, other}) fs::remove_all(p);
}

}  // namespace
}  // namespace softfit
