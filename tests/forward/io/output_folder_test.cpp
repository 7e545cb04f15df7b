// Output folders never cost the user data: the folder checks, and the staged install
// that replaces an earlier run's files and no others. Every case keeps sentinel files
// of the "user's" and checks them afterwards.
#include "forward/io/output_folder.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "forward/errors.h"
#include "io_test_support.h"

namespace softfit {
namespace {

namespace fs = std::filesystem;

std::string contents(const fs::path& path) { return testing::readFile(path.string()); }

void write(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream(path) << text;
}

// The InputError message of f(), or "" when it does not throw.
template <class F>
std::string refusal(F&& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

class OutputFolder : public ::testing::Test {
 protected:
  void SetUp() override {
    dir = fs::temp_directory_path() / ("softfit_output_folder_" + std::to_string(::getpid()));
    fs::remove_all(dir);
    write(dir / "capture" / "capture.json", "raw capture\n");
    write(dir / "notes.txt", "the user's\n");
    previous = fs::current_path();
  }
  void TearDown() override {
    fs::current_path(previous);
    fs::remove_all(dir);
  }
  void expectSentinels() {
    EXPECT_EQ(contents(dir / "capture" / "capture.json"), "raw capture\n");
    EXPECT_EQ(contents(dir / "notes.txt"), "the user's\n");
  }
  // Files of a staging folder: `files` (relative path -> text).
  static void fill(const StagedFolder& staged, const std::vector<std::pair<std::string, std::string>>& files) {
    for (const auto& [name, text] : files) write(fs::path(staged.path()) / name, text);
  }
  fs::path dir, previous;
};

TEST_F(OutputFolder, RefusesTheCurrentFolderAndTheFoldersAboveIt) {
  fs::current_path(dir / "capture");
  for (const std::string& out : {std::string("."), std::string("./"), std::string(".."), dir.string(),
                                 (dir / "capture" / ".").string()}) {
    const std::string message = refusal([&] { checkOutputFolder(out, {}, "-o"); });
    EXPECT_NE(message.find("-o " + out + ": is the current folder"), std::string::npos) << out << ": " << message;
  }
  EXPECT_EQ(refusal([] { checkOutputFolder("reconstruction", {}, "-o"); }), "");
  expectSentinels();
}

TEST_F(OutputFolder, RefusesAFolderThatIsOrHoldsAnInput) {
  const std::string capture = (dir / "capture").string();
  EXPECT_NE(refusal([&] { checkOutputFolder(capture, {capture}, "output"); }).find("output " + capture + ": is the input"),
            std::string::npos);
  EXPECT_NE(refusal([&] { checkOutputFolder(dir.string(), {capture}, "-o"); }).find("holds the input " + capture),
            std::string::npos);
  // The same folder under another spelling, and through a symbolic link.
  EXPECT_NE(refusal([&] { checkOutputFolder((dir / "capture/../capture/").string(), {capture}, "-o"); }), "");
  fs::create_symlink(dir / "capture", dir / "link");
  EXPECT_NE(refusal([&] { checkOutputFolder((dir / "link").string(), {capture}, "-o"); }), "");
  EXPECT_NE(refusal([&] { checkOutputFolder(dir.string(), {(dir / "capture" / "capture.json").string()}, "-o"); }),
            "");
  // Beside the input, or inside it, is fine; so is an input that does not exist.
  EXPECT_EQ(refusal([&] { checkOutputFolder((dir / "out").string(), {capture}, "-o"); }), "");
  EXPECT_EQ(refusal([&] { checkOutputFolder((dir / "capture" / "out").string(), {capture}, "-o"); }), "");
  EXPECT_EQ(refusal([&] { checkOutputFolder(dir.string(), {(dir / "absent").string(), ""}, "-o"); }), "");
  EXPECT_NE(refusal([&] { checkOutputFolder("", {}, "-o"); }).find("-o: the output folder is empty"),
            std::string::npos);
  EXPECT_NE(refusal([&] { checkOutputFolder((dir / "notes.txt").string(), {}, "-o"); }).find("is not a folder"),
            std::string::npos);
  expectSentinels();
}

TEST_F(OutputFolder, ANewFolderGetsTheStagedFilesAndTheirList) {
  const fs::path out = dir / "out";
  {
    StagedFolder staged(out.string(), {}, {"scene.json", "report"}, "-o");
    EXPECT_FALSE(fs::exists(out));  // nothing appears at OUT before the install
    fill(staged, {{"scene.json", "scene\n"}, {"report/summary.json", "summary\n"}});
    staged.install();
  }
  EXPECT_EQ(contents(out / "scene.json"), "scene\n");
  EXPECT_EQ(contents(out / "report" / "summary.json"), "summary\n");
  const std::string manifest = contents(out / kOutputManifest);
  EXPECT_NE(manifest.find("\nreport/summary.json\n"), std::string::npos) << manifest;
  EXPECT_NE(manifest.find("\nscene.json\n"), std::string::npos) << manifest;
  // No staging folder is left beside OUT.
  for (const auto& entry : fs::directory_iterator(dir))
    EXPECT_EQ(entry.path().filename().string().find(".softfit-staging"), std::string::npos) << entry.path();
  expectSentinels();
}

TEST_F(OutputFolder, ARerunReplacesTheEarlierRunsFilesAndKeepsTheUsers) {
  const fs::path out = dir / "out";
  {
    StagedFolder staged(out.string(), {}, {"scene.json", "report"}, "-o");
    fill(staged, {{"scene.json", "first\n"}, {"report/frame_9.ply", "only in the first run\n"}});
    staged.install();
  }
  write(out / "my_notes.txt", "the user's own\n");
  {
    StagedFolder staged(out.string(), {}, {"scene.json", "report"}, "-o");
    fill(staged, {{"scene.json", "second\n"}, {"report/summary.json", "summary\n"}});
    staged.install();
  }
  EXPECT_EQ(contents(out / "scene.json"), "second\n");
  EXPECT_FALSE(fs::exists(out / "report" / "frame_9.ply"));  // the earlier run's, not written again
  EXPECT_EQ(contents(out / "report" / "summary.json"), "summary\n");
  EXPECT_EQ(contents(out / "my_notes.txt"), "the user's own\n");
  expectSentinels();
}

TEST_F(OutputFolder, RefusesBeforeAnyWorkToReplaceAFileNoEarlierRunWrote) {
  const fs::path out = dir / "out";
  write(out / "scene.json", "the user's scene\n");
  EXPECT_NE(refusal([&] { StagedFolder(out.string(), {}, {"scene.json"}, "-o"); })
                .find("-o " + out.string() + ": holds scene.json, which no earlier run"),
            std::string::npos);
  // Also inside a folder of the writer's own name, and after an earlier run.
  fs::remove(out / "scene.json");
  {
    StagedFolder staged(out.string(), {}, {"scene.json", "report"}, "-o");
    fill(staged, {{"report/summary.json", "summary\n"}});
    staged.install();
  }
  write(out / "report" / "annotations.txt", "the user's\n");
  EXPECT_NE(refusal([&] { StagedFolder(out.string(), {}, {"scene.json", "report"}, "-o"); })
                .find("holds report/annotations.txt"),
            std::string::npos);
  EXPECT_EQ(contents(out / "report" / "annotations.txt"), "the user's\n");
  // A file of the manifest's name that softfit did not write is never read as a list.
  const fs::path other = dir / "other";
  write(other / kOutputManifest, "notes.txt\n");
  EXPECT_NE(refusal([&] { StagedFolder(other.string(), {}, {"notes.txt"}, "-o"); }).find("which softfit did not write"),
            std::string::npos);
  EXPECT_EQ(contents(other / kOutputManifest), "notes.txt\n");
  expectSentinels();
}

TEST_F(OutputFolder, AFailedRunLeavesNothingBehind) {
  const fs::path out = dir / "out";
  std::string staging;
  {
    StagedFolder staged(out.string(), {}, {"scene.json"}, "-o");
    staging = staged.path();
    fill(staged, {{"scene.json", "half written\n"}});
  }  // destroyed without install: the run failed
  EXPECT_FALSE(fs::exists(out));
  EXPECT_FALSE(fs::exists(staging));
  expectSentinels();
}

TEST_F(OutputFolder, AManifestEntryOutsideTheFolderIsNeverRemoved) {
  const fs::path out = dir / "out";
  {
    StagedFolder staged(out.string(), {}, {"scene.json"}, "-o");
    fill(staged, {{"scene.json", "first\n"}});
    staged.install();
  }
  std::ofstream(out / kOutputManifest, std::ios::app) << "../notes.txt\n" << (dir / "notes.txt").string() << "\n";
  {
    StagedFolder staged(out.string(), {}, {"scene.json"}, "-o");
    fill(staged, {{"scene.json", "second\n"}});
    staged.install();
  }
  EXPECT_EQ(contents(out / "scene.json"), "second\n");
  expectSentinels();
}

}  // namespace
}  // namespace softfit
