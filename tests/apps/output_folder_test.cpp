// Every command refuses, before any work, an output folder that is the current folder
// or holds one of its inputs (exit 2, naming -o), and leaves the user's files as they were.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "support/run_command.h"

namespace {

namespace fs = std::filesystem;

const char* const kCorpus = SOFTFIT_SOURCE_DIR "/tests/apps/hostile";

// A command line with {T} for the test's folder; its inputs are copied into {T}.
struct OutputCase {
  const char* name;
  const char* arguments;
};

void PrintTo(const OutputCase& c, std::ostream* os) { *os << c.name; }

std::string substitute(std::string text, const std::string& value) {
  for (std::size_t at = text.find("{T}"); at != std::string::npos; at = text.find("{T}", at + value.size()))
    text.replace(at, 3, value);
  return text;
}

class OutputFolderRefusal : public ::testing::TestWithParam<OutputCase> {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("softfit_output_refusal_" + std::to_string(::getpid()) + "_" + GetParam().name);
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "observations");
    fs::copy_file(fs::path(kCorpus) / "tiny_box.json", dir_ / "tiny_box.json");
    std::ofstream(dir_ / "model.json") << "{}";
    std::ofstream(dir_ / "sentinel.txt") << "the user's\n";
    std::ofstream(dir_ / "observations" / "sentinel.txt") << "the user's too\n";
    previous_ = fs::current_path();
  }
  void TearDown() override {
    fs::current_path(previous_);
    fs::remove_all(dir_);
  }
  void expectRefused(const softfit::testing::CommandResult& r, const char* why) {
    EXPECT_EQ(r.exitCode, 2) << r.output;
    EXPECT_NE(r.output.find("-o "), std::string::npos) << r.output;
    EXPECT_NE(r.output.find(why), std::string::npos) << r.output;
    // Nothing was written and nothing removed.
    std::vector<std::string> names;
    for (const auto& entry : fs::directory_iterator(dir_)) names.push_back(entry.path().filename().string());
    std::sort(names.begin(), names.end());
    EXPECT_EQ(names, (std::vector<std::string>{"model.json", "observations", "sentinel.txt", "tiny_box.json"}));
    EXPECT_EQ(softfit::testing::fileBytes((dir_ / "sentinel.txt").string()), "the user's\n");
    EXPECT_EQ(softfit::testing::fileBytes((dir_ / "observations" / "sentinel.txt").string()), "the user's too\n");
  }
  fs::path dir_, previous_;
};

TEST_P(OutputFolderRefusal, TheCurrentFolder) {
  fs::current_path(dir_);
  const auto r = softfit::testing::runSoftfit(substitute(GetParam().arguments, ".") + " -o .", 60);
  fs::current_path(previous_);
  expectRefused(r, "is the current folder");
}

TEST_P(OutputFolderRefusal, AFolderHoldingAnInput) {
  const auto r = softfit::testing::runSoftfit(substitute(GetParam().arguments, dir_.string()) + " -o " + dir_.string(), 60);
  expectRefused(r, "holds the input");
}

const OutputCase kCommands[] = {
    {"simulate", "simulate {T}/tiny_box.json"},
    {"synth", "synth {T}/tiny_box.json"},
    {"fit", "fit {T}/tiny_box.json --observations {T}/observations --params E"},
    {"sweep", "sweep {T}/tiny_box.json --observations {T}/observations --grid E=1000:2000:2"},
    {"face_solve", "face solve {T}/model.json --targets {T}/observations"},
    {"face_fit", "face fit {T}/model.json --targets {T}/observations"},
    {"face_animate", "face animate {T}/model.json --expressions {T}/model.json --from rest --to a"},
};
INSTANTIATE_TEST_SUITE_P(EveryCommand, OutputFolderRefusal, ::testing::ValuesIn(kCommands),
                         [](const auto& info) { return std::string(info.param.name); });

}  // namespace

namespace {

TEST(OutputFolderRefusalGenerate, TheCurrentFolder) {
  const fs::path dir = fs::temp_directory_path() / ("softfit_output_refusal_generate_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / "sentinel.txt") << "the user's\n";
  const fs::path previous = fs::current_path();
  fs::current_path(dir);
  const auto r = softfit::testing::runSoftfit("face generate -o .", 60);
  fs::current_path(previous);
  EXPECT_EQ(r.exitCode, 2) << r.output;
  EXPECT_NE(r.output.find("-o .: is the current folder"), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(dir / "model.json"));
  EXPECT_EQ(softfit::testing::fileBytes((dir / "sentinel.txt").string()), "the user's\n");
  fs::remove_all(dir);
}

}  // namespace
