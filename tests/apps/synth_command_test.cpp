// End-to-end: `softfit synth --sensor kinect --background` writes a raw capture (depth
// PNGs + intrinsics, rest frames, floor in view) that loadCapture reads; the same seed
// gives the same bytes; bad sensor options are input errors naming the option.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>

#include "observations/capture_io.h"
#include "support/run_command.h"

namespace {

namespace fs = std::filesystem;

using softfit::testing::CommandResult;
CommandResult run(const std::string& arguments) { return softfit::testing::runSoftfit(arguments); }

std::string bytes(const fs::path& path) { return softfit::testing::fileBytes(path.string()); }

class SynthCommand : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("softfit_synth_test_" + std::to_string(::getpid()));
    fs::create_directories(dir_);
    scene_ = (dir_ / "scene.json").string();
    std::ofstream(scene_) << R"({
      "box": {"min": [-0.15, 0.05, -0.15], "max": [0.15, 0.35, 0.15], "cells": [1, 1, 1]},
      "material": {"model": "warped_corotated", "youngs_modulus": 3000, "poisson_ratio": 0.3, "density": 100},
      "gravity": [0, -10, 0],
      "ground": {"normal": [0, 1, 0], "offset": 0},
      "initial": {"velocity": [0.2, -1.0, 0.0]},
      "integrator": {"type": "newmark_theta", "theta": 0.6},
      "time": {"dt": 0.01, "steps": 4}
    })";
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
  std::string scene_;
};

TEST_F(SynthCommand, KinectWithBackgroundWritesRawDepthImagesAndRestFrames) {
  const std::string common = "synth " + scene_ + " --sensor kinect --background --resolution 16 --camera-count 2";
  const CommandResult r = run(common + " --rest-frames 2 --seed 5 -o " + (dir_ / "raw").string());
  ASSERT_EQ(r.exitCode, 0) << r.output;
  EXPECT_NE(r.output.find("2 rest frames"), std::string::npos) << r.output;
  const fs::path raw = dir_ / "raw";
  for (const char* f : {"depth/frame_000004_cam1.png", "depth/rest_000001_cam0.png", "depth/cam0.json",
                        "cameras.json", "displacements.json", "truth.json", "run_complete.txt"})
    EXPECT_TRUE(fs::exists(raw / f)) << f;
  EXPECT_FALSE(fs::exists(raw / "frames")) << "no point clouds in a raw capture";
  std::ifstream in(raw / "capture.json");
  const nlohmann::json json = nlohmann::json::parse(in);
  ASSERT_EQ(json["rest_frames"].size(), 2u);
  EXPECT_EQ(json["frames"][0]["depth"].size(), 2u);
  EXPECT_EQ(json["frames"][0]["depth"][0].count("mask"), 0u);

  const softfit::Capture capture = softfit::loadCapture(raw.string());
  EXPECT_EQ(capture.frameCount(), 5);
  ASSERT_EQ(capture.restFrames.size(), 2u);
  EXPECT_DOUBLE_EQ(capture.dt, 0.01);
  // The floor (y = 0) is in the images, away from the body (within 0.3 m of the y axis).
  int floor = 0, body = 0;
  for (int i = 0; i < capture.restFrames[0].cloud.size(); ++i) {
    const auto p = capture.restFrames[0].cloud.point(i);
    const double radial = std::hypot(p.x(), p.z());
    if (std::abs(p.y()) < 0.01 && radial > 0.35) ++floor;
    if (p.y() > 0.1 && radial < 0.25) ++body;
  }
  EXPECT_GT(floor, 10);
  EXPECT_GT(body, 10);

  // Same seed, same bytes; another seed, other bytes.
  ASSERT_EQ(run(common + " --rest-frames 2 --seed 5 -o " + (dir_ / "same").string()).exitCode, 0);
  ASSERT_EQ(run(common + " --rest-frames 2 --seed 6 -o " + (dir_ / "other").string()).exitCode, 0);
  for (const char* f : {"depth/frame_000003_cam0.png", "depth/rest_000000_cam1.png"}) {
    EXPECT_EQ(bytes(raw / f), bytes(dir_ / "same" / f)) << f;
    EXPECT_NE(bytes(raw / f), bytes(dir_ / "other" / f)) << f;
  }
  // Default rest frames of a raw capture: 5.
  ASSERT_EQ(run("synth " + scene_ + " --background --resolution 12 --camera-count 1 -o " + (dir_ / "d").string())
                .exitCode,
            0);
  EXPECT_EQ(softfit::loadCapture((dir_ / "d").string()).restFrames.size(), 5u);
}

TEST_F(SynthCommand, WithoutSensorOptionsTheCaptureIsPointCloudsWithoutRestFrames) {
  const CommandResult r = run("synth " + scene_ + " --resolution 16 --camera-count 2 -o " + (dir_ / "ply").string());
  ASSERT_EQ(r.exitCode, 0) << r.output;
  EXPECT_TRUE(fs::exists(dir_ / "ply" / "frames" / "frame_000004.ply"));
  EXPECT_FALSE(fs::exists(dir_ / "ply" / "depth"));
  EXPECT_TRUE(softfit::loadCapture((dir_ / "ply").string()).restFrames.empty());
  // An explicit --sensor ideal is the default: the same files, byte for byte.
  ASSERT_EQ(run("synth " + scene_ + " --resolution 16 --camera-count 2 --sensor ideal -o " + (dir_ / "i").string())
                .exitCode,
            0);
  for (const char* f : {"capture.json", "frames/frame_000004.ply", "cameras.json"})
    EXPECT_EQ(bytes(dir_ / "ply" / f), bytes(dir_ / "i" / f)) << f;
  // --rest-frames alone: rest frames as point clouds.
  ASSERT_EQ(run("synth " + scene_ + " --resolution 16 --camera-count 2 --rest-frames 3 -o " + (dir_ / "r").string())
                .exitCode,
            0);
  EXPECT_EQ(softfit::loadCapture((dir_ / "r").string()).restFrames.size(), 3u);
}

TEST_F(SynthCommand, BadSensorOptionsAreInputErrorsNamingTheOption) {
  const std::string out = " -o " + (dir_ / "bad").string();
  CommandResult r = run("synth " + scene_ + " --sensor foo" + out);
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_NE(r.output.find("--sensor"), std::string::npos) << r.output;
  r = run("synth " + scene_ + " --background --rest-frames -3" + out);
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_NE(r.output.find("--rest-frames"), std::string::npos) << r.output;
  r = run("synth " + scene_ + " --sensor kinect --noise 0.01" + out);
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_NE(r.output.find("--noise"), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(dir_ / "bad"));
}

}  // namespace
