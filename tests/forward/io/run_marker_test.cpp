#include "forward/io/run_marker.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "forward/errors.h"

namespace softfit {
namespace {

namespace fs = std::filesystem;

std::string contents(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

class RunMarker : public ::testing::Test {
 protected:
  void SetUp() override {
    dir = fs::temp_directory_path() / ("softfit_run_marker_" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir);
  }
  void TearDown() override { fs::remove_all(dir); }
  fs::path dir;
};

TEST_F(RunMarker, BeginRunRemovesTheMarkerAndTheNamedOutputsOnly) {
  for (const char* file : {"run_complete.txt", "result.json", "keep.txt"}) std::ofstream(dir / file) << "old\n";
  beginRun(dir.string(), {"result.json", "absent.json"});
  EXPECT_FALSE(fs::exists(dir / "run_complete.txt"));
  EXPECT_FALSE(fs::exists(dir / "result.json"));
  EXPECT_TRUE(fs::exists(dir / "keep.txt"));
  markRunComplete(dir.string(), "done");
  EXPECT_EQ(contents(dir / "run_complete.txt"), "done\n");
}

TEST_F(RunMarker, WriteAtomicallyReplacesTheFileWhole) {
  const fs::path target = dir / "result.json";
  std::ofstream(target) << "old\n";
  writeAtomically(target.string(), [&](const std::string& path) {
    EXPECT_NE(path, target.string());
    EXPECT_EQ(contents(target), "old\n");  // the target is untouched while writing
    std::ofstream(path) << "new\n";
  });
  EXPECT_EQ(contents(target), "new\n");
  EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()), 1);  // no temporary left
}

TEST_F(RunMarker, AFailedWriteLeavesTheOldFileAndNoTemporary) {
  const fs::path target = dir / "result.json";
  std::ofstream(target) << "old\n";
  EXPECT_THROW(writeAtomically(target.string(),
                               [&](const std::string& path) {
                                 std::ofstream(path) << "half";
                                 throw std::runtime_error("interrupted");
                               }),
               std::runtime_error);
  EXPECT_EQ(contents(target), "old\n");
  EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()), 1);
}

TEST_F(RunMarker, AnUnwritableMarkerNamesIt) {
  try {
    markRunComplete((dir / "missing_folder").string(), "done");
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("run_complete.txt"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace softfit
