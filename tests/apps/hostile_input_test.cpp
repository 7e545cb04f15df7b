// Issue 25: the softfit binary on the hostile-input corpus (tests/apps/hostile/). Each
// case asserts the documented exit code and that the message names the file or field.
// In the arguments, {H} is the corpus folder and {T} a fresh folder holding `fifo` (a
// named pipe), `folder` (a folder) and `existing_file` (a regular file).
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "support/run_command.h"

namespace {

namespace fs = std::filesystem;

struct HostileCase {
  const char* name;
  const char* arguments;
  int exitCode;
  std::vector<const char*> mentions;  // each must appear in the output
};

void PrintTo(const HostileCase& c, std::ostream* os) { *os << c.name; }

std::string substitute(std::string text, const std::string& key, const std::string& value) {
  for (std::size_t at = text.find(key); at != std::string::npos; at = text.find(key, at + value.size()))
    text.replace(at, key.size(), value);
  return text;
}

class HostileInput : public ::testing::TestWithParam<HostileCase> {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("softfit_hostile_" + std::to_string(::getpid()) + "_" + GetParam().name);
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "folder");
    std::ofstream(dir_ / "existing_file") << "not a folder\n";
    ASSERT_EQ(::mkfifo((dir_ / "fifo").c_str(), 0600), 0);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

TEST_P(HostileInput, ExitsWithTheDocumentedCodeAndNamesTheCulprit) {
  const HostileCase& c = GetParam();
  std::string arguments = substitute(c.arguments, "{H}", SOFTFIT_SOURCE_DIR "/tests/apps/hostile");
  arguments = substitute(arguments, "{T}", dir_.string());
  const softfit::testing::CommandResult r = softfit::testing::runSoftfit(arguments, 20);
  EXPECT_EQ(r.exitCode, c.exitCode) << arguments << "\n" << r.output;
  for (const char* m : c.mentions) EXPECT_NE(r.output.find(m), std::string::npos) << "no \"" << m << "\" in\n" << r.output;
}

const HostileCase kCommandLine[] = {
    {"no_subcommand", "", 1, {"subcommand"}},
    {"unknown_option", "simulate {H}/tiny_box.json --bogus -o {T}/out", 1, {"--bogus"}},
    {"steps_not_a_number", "simulate {H}/tiny_box.json --steps abc -o {T}/out", 1, {"--steps"}},
    {"missing_scene_file", "simulate {H}/does_not_exist.json -o {T}/out", 2, {"does_not_exist.json"}},
    {"fit_missing_scene_file", "fit {H}/does_not_exist.json --observations {T}/folder -o {T}/out", 2,
     {"does_not_exist.json"}},
};
INSTANTIATE_TEST_SUITE_P(CommandLine, HostileInput, ::testing::ValuesIn(kCommandLine),
                         [](const auto& info) { return std::string(info.param.name); });

}  // namespace
