// End-to-end: softfit face generate -> solve -> fit -> animate on a tiny synthetic face;
// bad input gives exit code 2 naming the file.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "support/run_command.h"

namespace {

namespace fs = std::filesystem;
using softfit::testing::runSoftfit;

class FaceCommand : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("softfit_face_test_" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

TEST_F(FaceCommand, GenerateSolveFitAnimate) {
  const std::string data = (dir_ / "face").string();
  auto r = runSoftfit("face generate -o " + data + " --cells-around 6 --cells-up 5 --cells-through 1 --targets 2");
  ASSERT_EQ(r.exitCode, 0) << r.output;
  ASSERT_TRUE(fs::exists(data + "/model.json"));
  ASSERT_TRUE(fs::exists(data + "/targets/targets.json"));
  ASSERT_TRUE(fs::exists(data + "/truth/geometry.csv"));

  const std::string solved = (dir_ / "solve").string();
  r = runSoftfit("face solve " + data + "/model.json --targets " + data + "/targets --geometry " + data +
                 "/truth/geometry.csv --iterations 15 -o " + solved);
  ASSERT_EQ(r.exitCode, 0) << r.output;
  EXPECT_TRUE(fs::exists(solved + "/activations.json"));
  EXPECT_TRUE(fs::exists(solved + "/geometry.csv"));
  EXPECT_TRUE(fs::exists(solved + "/errors.csv"));
  EXPECT_TRUE(fs::exists(solved + "/meshes/expression_0.vtu"));
  std::ifstream vtu(solved + "/meshes/expression_0.vtu");
  const std::string text((std::istreambuf_iterator<char>(vtu)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("Name=\"error\""), std::string::npos);

  // The same scans without correspondences: skin nodes pulled to the closest scan points.
  const std::string scans = (dir_ / "scans").string();
  fs::create_directories(scans);
  for (const char* name : {"expression_0.obj", "expression_1.obj", "correspondences.txt"})
    fs::copy_file(data + "/targets/" + name, scans + "/" + name);
  std::ofstream(scans + "/targets.json")
      << R"({"closest_point_nodes": "correspondences.txt", "targets": [{"file": "expression_0.obj"}, {"file": "expression_1.obj"}]})";
  r = runSoftfit("face solve " + data + "/model.json --targets " + scans + " --geometry " + data +
                 "/truth/geometry.csv --iterations 15 -o " + (dir_ / "solve_scans").string());
  ASSERT_EQ(r.exitCode, 0) << r.output;
  EXPECT_TRUE(fs::exists((dir_ / "solve_scans" / "meshes" / "expression_0.vtu").string()));
  std::ofstream(scans + "/targets.json")
      << R"({"closest_point_nodes": [0], "correspondences": [0], "targets": [{"file": "expression_0.obj"}]})";
  r = runSoftfit("face solve " + data + "/model.json --targets " + scans + " -o " + (dir_ / "bad").string());
  EXPECT_EQ(r.exitCode, 2) << r.output;
  EXPECT_NE(r.output.find("targets.json"), std::string::npos) << r.output;

  const std::string fitted = (dir_ / "fit").string();
  r = runSoftfit("face fit " + data + "/model.json --targets " + data +
                 "/targets --rounds 1 --iterations 5 --geometry-iterations 2 -o " + fitted);
  ASSERT_EQ(r.exitCode, 0) << r.output;
  EXPECT_TRUE(fs::exists(fitted + "/history.csv"));
  EXPECT_TRUE(fs::exists(fitted + "/geometry.csv"));

  const std::string anim = (dir_ / "anim").string();
  r = runSoftfit("face animate " + data + "/model.json --geometry " + data + "/truth/geometry.csv --expressions " +
                 data + "/truth/expressions.json --from rest --to expression_1 --frames 3 --fat 1.1 -o " + anim);
  ASSERT_EQ(r.exitCode, 0) << r.output;
  EXPECT_TRUE(fs::exists(anim + "/animation.pvd"));
  EXPECT_TRUE(fs::exists(anim + "/frames/frame_000002.vtu"));
}

TEST_F(FaceCommand, BadModelNamesTheFile) {
  const std::string model = (dir_ / "model.json").string();
  std::ofstream(model) << R"({"tet_mesh": "missing.node", "skul_nodes": [0]})";
  const auto r = runSoftfit("face solve " + model + " --targets " + dir_.string());
  EXPECT_EQ(r.exitCode, 2) << r.output;
  EXPECT_NE(r.output.find("model.json"), std::string::npos) << r.output;
}

}  // namespace
