// truth.json only feeds reports: readOptionalGroundTruth turns a bad one (malformed, not a
// number, a FIFO, a folder) into a warning naming it, and an absent one into nothing.
#include "optim/report/ground_truth.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "forward/mesh/temp_directory.h"

namespace softfit {
namespace {

namespace fs = std::filesystem;

class GroundTruth : public ::testing::Test {
 protected:
  TempDirectory temp{"softfit-ground-truth-"};
  const fs::path dir{temp.path()};
};

TEST_F(GroundTruth, AValidFileIsReadAndAnAbsentOneIsNothing) {
  writeGroundTruth((dir / "truth.json").string(), {{"E", 5000.0}, {"nu", 0.3}});
  const OptionalGroundTruth t = readOptionalGroundTruth((dir / "truth.json").string());
  EXPECT_TRUE(t.warning.empty());
  EXPECT_EQ(t.values.at("E"), 5000.0);
  const OptionalGroundTruth none = readOptionalGroundTruth((dir / "absent.json").string());
  EXPECT_TRUE(none.values.empty());
  EXPECT_TRUE(none.warning.empty());
}

TEST_F(GroundTruth, ABadFileIsAWarningNamingIt) {
  ASSERT_EQ(::mkfifo((dir / "fifo.json").c_str(), 0600), 0);
  fs::create_directories(dir / "folder.json");
  std::ofstream(dir / "malformed.json") << "{\"E\": ";
  std::ofstream(dir / "text.json") << "{\"E\": \"5000\"}";
  for (const char* name : {"fifo.json", "folder.json", "malformed.json", "text.json"}) {
    const std::string path = (dir / name).string();
    const OptionalGroundTruth t = readOptionalGroundTruth(path);  // returns: a FIFO is never opened
    EXPECT_TRUE(t.values.empty()) << name;
    EXPECT_NE(t.warning.find(path), std::string::npos) << t.warning;
    EXPECT_NE(t.warning.find("not reported"), std::string::npos) << t.warning;
  }
}

}  // namespace
}  // namespace softfit
