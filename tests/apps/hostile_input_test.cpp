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

// Issue 25: numbers that overflow a double, and integers that wrapped modulo 2^32.
const HostileCase kJsonNumbers[] = {
    {"scene_1e400", "simulate {H}/json_number_overflow.json -o {T}/out", 2, {"json_number_overflow.json"}},
    {"sdf_volume_header_1e400", "simulate {H}/json_sdf_volume_overflow.json -o {T}/out", 2,
     {"json_sdf_volume_overflow.sdf.json"}},
    {"capture_1e400", "fit {H}/tiny_box.json --observations {H}/json_capture_overflow -o {T}/out", 2,
     {"json_capture_overflow/capture.json"}},
    {"cameras_1e400", "synth {H}/tiny_box.json --cameras {H}/json_cameras_overflow.json -o {T}/out", 2,
     {"json_cameras_overflow.json"}},
    {"steps_4294967299", "simulate {H}/json_steps_wrap.json -o {T}/out", 2, {"json_steps_wrap.json", "time.steps"}},
    {"cells_4294967297", "simulate {H}/json_cells_wrap.json -o {T}/out", 2, {"json_cells_wrap.json", "box.cells[0]"}},
    {"dirichlet_nodes_4294967296", "simulate {H}/json_dirichlet_nodes_wrap.json -o {T}/out", 2,
     {"json_dirichlet_nodes_wrap.json", "dirichlet[0].nodes[0]"}},
    {"max_iterations_4294967297", "simulate {H}/json_max_iterations_wrap.json -o {T}/out", 2,
     {"json_max_iterations_wrap.json", "integrator.max_iterations"}},
    {"every_4294967297", "simulate {H}/json_every_wrap.json -o {T}/out", 2, {"json_every_wrap.json", "output.every"}},
};
INSTANTIATE_TEST_SUITE_P(JsonNumbers, HostileInput, ::testing::ValuesIn(kJsonNumbers),
                         [](const auto& info) { return std::string(info.param.name); });

}  // namespace
