// End-to-end: `softfit reconstruct` on a tiny raw capture written by `softfit synth
// --sensor kinect --background` (32 x 32 pixels, 4 cameras, 2 rest frames, 5 frames):
// scene.json loads and builds, the observations load, the run is deterministic, `fit`
// runs on the result; and each
// bad input exits 2 with a message naming the file and the frame, leaving no output.
#include <gtest/gtest.h>

#include <filesystem>
#include <functional>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>

#include "scene/scene_builder.h"
#include "scene/scene_loader.h"
#include "observations/capture_io.h"
#include "observations/depth_png.h"
#include "support/mutation_fuzz.h"
#include "support/run_command.h"

namespace {

namespace fs = std::filesystem;

using softfit::testing::CommandResult;
CommandResult run(const std::string& arguments) { return softfit::testing::runSoftfit(arguments); }

std::string bytes(const fs::path& path) { return softfit::testing::fileBytes(path.string()); }

const char* kBoxScene = R"({
  "box": {"min": [-0.15, 0.0, -0.15], "max": [0.15, 0.3, 0.15], "cells": [1, 1, 1]},
  "material": {"model": "warped_corotated", "youngs_modulus": 3000, "poisson_ratio": 0.3, "density": 100},
  "gravity": [0, -10, 0],
  "ground": {"normal": [0, 1, 0], "offset": 0},
  "initial": {"velocity": [1.5, 2.0, 0.0]},
  "integrator": {"type": "newmark_theta", "theta": 0.6},
  "time": {"dt": 0.01, "steps": 4}
})";

class ReconstructCommand : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    root_ = fs::temp_directory_path() / ("softfit_reconstruct_test_" + std::to_string(::getpid()));
    fs::create_directories(root_);
    std::ofstream(root_ / "box.json") << kBoxScene;
    const CommandResult r = run("synth " + (root_ / "box.json").string() +
                                " --sensor kinect --background --resolution 32 --camera-count 4 --rest-frames 2 -o " +
                                (root_ / "capture").string());
    ASSERT_EQ(r.exitCode, 0) << r.output;
  }
  static void TearDownTestSuite() { fs::remove_all(root_); }
  void SetUp() override {
    dir_ = root_ / ::testing::UnitTest::GetInstance()->current_test_info()->name();
    fs::create_directories(dir_);
    fs::copy(root_ / "capture", dir_ / "capture", fs::copy_options::recursive);
  }
  // Runs reconstruct on this test's capture copy; expects exit 2, a message holding every
  // `expected` text, and no output folder (complete or partial).
  void expectBadInput(const std::vector<std::string>& expected) {
    const fs::path out = dir_ / "out";
    const CommandResult r = run("reconstruct " + (dir_ / "capture").string() + " -o " + out.string());
    EXPECT_EQ(r.exitCode, 2) << r.output;
    for (const std::string& text : expected) EXPECT_NE(r.output.find(text), std::string::npos) << text << "\n" << r.output;
    EXPECT_FALSE(fs::exists(out));
    EXPECT_FALSE(fs::exists(out.string() + ".partial"));
  }
  // A raw capture with the suite's cameras and the box 4 m away, out of every view: the
  // images show only the floor and the scenery.
  void writeEmptySceneCapture(const fs::path& capture) {
    nlohmann::json scene = nlohmann::json::parse(kBoxScene);
    scene["box"]["min"] = {3.85, 0.0, -0.15};
    scene["box"]["max"] = {4.15, 0.3, 0.15};
    std::ofstream(dir_ / "far.json") << scene.dump();
    fs::remove_all(capture);
    const CommandResult r = run("synth " + (dir_ / "far.json").string() + " --sensor kinect --background --cameras " +
                                (root_ / "capture/cameras.json").string() + " --rest-frames 2 -o " + capture.string());
    ASSERT_EQ(r.exitCode, 0) << r.output;
  }
  static fs::path root_;
  fs::path dir_;
};

fs::path ReconstructCommand::root_;

// A stiff box thrown spinning in the air, seen at 64 x 48 pixels: the spin and the
// velocity of its centre of mass come back (the targets: 3% and 0.15 rad/s). Simulated
// with the trapezoidal rule (Newmark theta 0.5), whose free flight is the exact parabola:
// backward Euler's at this dt falls g dt / 2 = 0.05 m/s faster than the continuum.
TEST_F(ReconstructCommand, EstimatesTheSpinOfAThrownBox) {
  std::ofstream(dir_ / "spin.json") << R"({
  "box": {"min": [-0.15, 0.45, -0.06], "max": [0.15, 0.65, 0.06], "cells": [3, 2, 1]},
  "material": {"model": "warped_corotated", "youngs_modulus": 1e5, "poisson_ratio": 0.3, "density": 100},
  "gravity": [0, -9.81, 0],
  "ground": {"normal": [0, 1, 0], "offset": 0},
  "initial": {"velocity": [0.6, 0.5, -0.3], "angular_velocity": [1.5, 3.0, -2.0], "center": [0, 0.55, 0]},
  "integrator": {"type": "newmark_theta", "theta": 0.5},
  "time": {"dt": 0.01, "steps": 10}
})";
  const CommandResult synth = run("synth " + (dir_ / "spin.json").string() +
                                  " --sensor kinect --background --resolution 64 --camera-count 4 --rest-frames 2 -o " +
                                  (dir_ / "spin").string());
  ASSERT_EQ(synth.exitCode, 0) << synth.output;
  const CommandResult r = run("reconstruct " + (dir_ / "spin").string() + " -o " + (dir_ / "spin_out").string());
  ASSERT_EQ(r.exitCode, 0) << r.output;
  const softfit::SceneDescription scene = softfit::loadScene((dir_ / "spin_out/scene.json").string());
  const softfit::Vec3 v(0.6, 0.5, -0.3), omega(1.5, 3.0, -2.0);
  // The scene's rigid start is about the estimated centre of mass: its velocity there.
  const softfit::Vec3 atCenter = v + omega.cross(scene.initial.center.value() - softfit::Vec3(0, 0.55, 0));
  EXPECT_LT((scene.initial.velocity - atCenter).norm(), 0.03 * v.norm()) << scene.initial.velocity.transpose();
  EXPECT_LT((scene.initial.angularVelocity - omega).norm(), 0.15) << scene.initial.angularVelocity.transpose();
  // Without the spin: omega 0 in the scene.
  const CommandResult still =
      run("reconstruct " + (dir_ / "spin").string() + " --no-angular-velocity -o " + (dir_ / "still").string());
  ASSERT_EQ(still.exitCode, 0) << still.output;
  EXPECT_EQ(softfit::loadScene((dir_ / "still/scene.json").string()).initial.angularVelocity, softfit::Vec3::Zero());
}

TEST_F(ReconstructCommand, WritesALoadableSceneAndObservations) {
  const fs::path out = dir_ / "out";
  const CommandResult r = run("reconstruct " + (dir_ / "capture").string() + " -o " + out.string() +
                              " --youngs 2e4 --poisson 0.25 --truth-scene " + (root_ / "box.json").string());
  ASSERT_EQ(r.exitCode, 0) << r.output;
  for (const char* f : {"scene.json", "scene_tets.json", "shape/rest_sdf.json", "shape/rest_sdf.f64",
                        "shape/rest_surface.obj", "observations/capture.json", "observations/noise.json",
                        "report/summary.json", "report/rest_object.ply", "report/rest_surface.obj",
                        "report/rest_shape.png", "report/true_surface.obj"})
    EXPECT_TRUE(fs::exists(out / f)) << f;

  const softfit::SceneDescription scene = softfit::loadScene((out / "scene.json").string());
  EXPECT_EQ(scene.steps, 4);
  EXPECT_DOUBLE_EQ(scene.dt, 0.01);
  ASSERT_TRUE(scene.ground.has_value());
  EXPECT_GT(scene.ground->normal.y(), 0.9999);
  EXPECT_NEAR(scene.ground->offset, 0.0, 0.005);
  EXPECT_NEAR(scene.gravity.y(), -9.81, 1e-3);
  EXPECT_DOUBLE_EQ(scene.material.youngs, 2e4);
  EXPECT_DOUBLE_EQ(scene.material.poisson, 0.25);
  // The initial rigid motion from frames 1..4, all in flight (registered to the rest
  // surface; the truth is (1.5, 2, 0) m/s and no spin; on these 32 x 32 images the spin
  // reads 0.15 rad/s and the velocity (1.49, 2.03, 0.03) m/s), about the rest shape's
  // centre of mass.
  EXPECT_NEAR(scene.initial.velocity.x(), 1.5, 0.06);
  EXPECT_NEAR(scene.initial.velocity.y(), 2.0, 0.06);
  EXPECT_NEAR(scene.initial.velocity.z(), 0.0, 0.06);
  EXPECT_LT(scene.initial.angularVelocity.norm(), 0.3);
  EXPECT_NE(scene.initial.angularVelocity, softfit::Vec3::Zero());  // estimated, not left at 0
  // The fit's closest-point cost and the ground see the fused surface, embedded in the grid.
  ASSERT_TRUE(scene.sdf.has_value());
  ASSERT_TRUE(scene.sdf->surfaceMesh.has_value());
  EXPECT_EQ(fs::path(*scene.sdf->surfaceMesh), fs::path(out / "shape/rest_surface.obj").lexically_normal());
  EXPECT_EQ(scene.sdf->contactPoints, softfit::GridContactPoints::Surface);
  // rest_shape.png: a valid PNG of the plot's size (two 360-pixel panels, scale bars, legend).
  const std::string png = bytes(out / "report/rest_shape.png");
  ASSERT_GT(png.size(), 24u);
  EXPECT_EQ(png.substr(1, 3), "PNG");
  const auto be32 = [&](std::size_t at) {
    return (static_cast<unsigned char>(png[at]) << 24) | (static_cast<unsigned char>(png[at + 1]) << 16) |
           (static_cast<unsigned char>(png[at + 2]) << 8) | static_cast<unsigned char>(png[at + 3]);
  };
  EXPECT_EQ(be32(16), 780);  // IHDR width
  EXPECT_EQ(be32(20), 464);  // IHDR height
  const nlohmann::json summary = nlohmann::json::parse(bytes(out / "report/summary.json"));
  EXPECT_EQ(summary["sdf"], "exact distance to rest_surface.obj");
  EXPECT_EQ(summary["initial_motion"]["frames"], 4);
  EXPECT_EQ(summary["initial_motion"]["flight"], "free");
  EXPECT_GT(summary["surface_refinement"]["points_used"].get<int>(), 100);  // the fused surface moved onto the rest points
  EXPECT_GT(summary["surface_refinement"]["max_shift"].get<double>(), 0.0);
  const softfit::BuiltScene built = softfit::buildScene(scene);
  EXPECT_TRUE(built.isGrid());
  EXPECT_EQ(built.embeddedSurface.vertexCount(),
            static_cast<int>(built.model->ground->points().size()));  // a contact point per fused vertex
  softfit::loadScene((out / "scene_tets.json").string());  // parses (TetGen runs only when built)

  const softfit::Capture capture = softfit::loadCapture((out / "observations").string());
  EXPECT_EQ(capture.frameCount(), 5);
  EXPECT_EQ(capture.restFrames.size(), 2u);
  EXPECT_GT(capture.frames[0].cloud.size(), 100);
  // Every object point is above the ground and near the box (it moves by < 0.1 m).
  for (const auto& frame : capture.frames)
    for (int i = 0; i < frame.cloud.size(); ++i) {
      EXPECT_GT(frame.cloud.points(i, 1), 0.0);
      EXPECT_LT(frame.cloud.points(i, 1), 0.45);
    }

  // Same input, same bytes.
  const CommandResult again = run("reconstruct " + (dir_ / "capture").string() + " -o " + (dir_ / "again").string() +
                                  " --youngs 2e4 --poisson 0.25");
  ASSERT_EQ(again.exitCode, 0) << again.output;
  EXPECT_EQ(bytes(out / "shape/rest_sdf.f64"), bytes(dir_ / "again/shape/rest_sdf.f64"));
  EXPECT_EQ(bytes(out / "scene.json"), bytes(dir_ / "again/scene.json"));  // initial velocity included
  EXPECT_EQ(bytes(out / "observations/frames/frame_000003.ply"), bytes(dir_ / "again/observations/frames/frame_000003.ply"));
}

TEST_F(ReconstructCommand, FitRunsOnTheReconstruction) {
  // The reconstruct -> fit chain (two iterations on a 32 x 32 capture: the recovered
  // values mean little here).
  const fs::path out = dir_ / "out";
  ASSERT_EQ(run("reconstruct " + (dir_ / "capture").string() + " -o " + out.string()).exitCode, 0);
  EXPECT_TRUE(fs::exists(out / "observations/truth.json"));
  const CommandResult fit = run("fit " + (out / "scene.json").string() + " --observations " +
                                (out / "observations").string() + " --params E,nu --max-iterations 2 -q -o " +
                                (dir_ / "fit").string());
  EXPECT_EQ(fit.exitCode, 0) << fit.output;
  EXPECT_TRUE(fs::exists(dir_ / "fit/result.json")) << fit.output;
}

TEST_F(ReconstructCommand, SensorFilesDriveSynthAndReconstruct) {
  // A sensor file holding just the preset is that preset: same images, same observations.
  std::ofstream(dir_ / "kinect.json") << R"({"preset": "kinect"})";
  const CommandResult synth = run("synth " + (root_ / "box.json").string() + " --sensor " +
                                  (dir_ / "kinect.json").string() +
                                  " --background --resolution 32 --camera-count 4 --rest-frames 2 -o " +
                                  (dir_ / "again").string());
  ASSERT_EQ(synth.exitCode, 0) << synth.output;
  EXPECT_EQ(bytes(dir_ / "again/depth/frame_000002_cam1.png"), bytes(dir_ / "capture/depth/frame_000002_cam1.png"));

  const fs::path preset = dir_ / "preset", file = dir_ / "file", custom = dir_ / "custom";
  ASSERT_EQ(run("reconstruct " + (dir_ / "capture").string() + " -o " + preset.string()).exitCode, 0);
  ASSERT_EQ(run("reconstruct " + (dir_ / "capture").string() + " --sensor " + (dir_ / "kinect.json").string() +
                " -o " + file.string()).exitCode, 0);
  EXPECT_EQ(bytes(preset / "observations/frames/frame_000003.ply"), bytes(file / "observations/frames/frame_000003.ply"));
  const nlohmann::json noise = nlohmann::json::parse(bytes(file / "observations/noise.json"));
  EXPECT_EQ(noise["model"], "kinect");
  EXPECT_EQ(noise["sensor"]["axial_sigma_constant"], 0.0012);

  // A changed field changes the assumed noise, and noise.json says so; its "sensor" block
  // is itself a sensor file.
  std::ofstream(dir_ / "noisier.json") << R"({"preset": "kinect", "axial_sigma_constant": 0.003})";
  ASSERT_EQ(run("reconstruct " + (dir_ / "capture").string() + " --sensor " + (dir_ / "noisier.json").string() +
                " -o " + custom.string()).exitCode, 0);
  const nlohmann::json noisier = nlohmann::json::parse(bytes(custom / "observations/noise.json"));
  EXPECT_EQ(noisier["model"], "custom");
  EXPECT_GT(noisier["median_sigma"].get<double>(), noise["median_sigma"].get<double>() + 0.0015);
  std::ofstream(dir_ / "written.json") << noisier["sensor"].dump();
  const CommandResult back = run("reconstruct " + (dir_ / "capture").string() + " --sensor " +
                                 (dir_ / "written.json").string() + " -o " + (dir_ / "back").string());
  ASSERT_EQ(back.exitCode, 0) << back.output;
  EXPECT_EQ(bytes(custom / "observations/noise.json"), bytes(dir_ / "back/observations/noise.json"));

  // A bad sensor file is bad input, named, and nothing is written.
  std::ofstream(dir_ / "typo.json") << R"({"preset": "kinect", "axial_sigma": 0.003})";
  const CommandResult bad = run("reconstruct " + (dir_ / "capture").string() + " --sensor " +
                                (dir_ / "typo.json").string() + " -o " + (dir_ / "bad").string());
  EXPECT_EQ(bad.exitCode, 2) << bad.output;
  EXPECT_NE(bad.output.find((dir_ / "typo.json").string()), std::string::npos) << bad.output;
  EXPECT_NE(bad.output.find("axial_sigma"), std::string::npos) << bad.output;
  EXPECT_FALSE(fs::exists(dir_ / "bad"));
}

TEST_F(ReconstructCommand, RefineIterationsOutOfRangeExitsTwoAndWritesNothing) {
  const fs::path out = dir_ / "bad_refine";
  const CommandResult r =
      run("reconstruct " + (dir_ / "capture").string() + " -o " + out.string() + " --refine-iterations -1");
  EXPECT_EQ(r.exitCode, 2) << r.output;
  EXPECT_NE(r.output.find("--refine-iterations"), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(out));
  EXPECT_FALSE(fs::exists(out.string() + ".partial"));
}

TEST_F(ReconstructCommand, RefineIterationsZeroKeepsTheFusedSurface) {
  const fs::path off = dir_ / "off", on = dir_ / "on";
  const CommandResult a = run("reconstruct " + (dir_ / "capture").string() + " -o " + off.string() + " --refine-iterations 0");
  ASSERT_EQ(a.exitCode, 0) << a.output;
  const CommandResult b = run("reconstruct " + (dir_ / "capture").string() + " -o " + on.string());
  ASSERT_EQ(b.exitCode, 0) << b.output;
  const nlohmann::json summary = nlohmann::json::parse(bytes(off / "report/summary.json"));
  EXPECT_EQ(summary["surface_refinement"]["iterations"], 0);
  EXPECT_EQ(summary["surface_refinement"]["points_used"], 0);
  EXPECT_NE(bytes(off / "shape/rest_surface.obj"), bytes(on / "shape/rest_surface.obj"));
}

TEST_F(ReconstructCommand, KeepUnseenFillSkipsTheWindingNumberTrim) {
  const fs::path keep = dir_ / "keep", trim = dir_ / "trim";
  const CommandResult a = run("reconstruct " + (dir_ / "capture").string() + " -o " + keep.string() + " --keep-unseen-fill");
  ASSERT_EQ(a.exitCode, 0) << a.output;
  const CommandResult b = run("reconstruct " + (dir_ / "capture").string() + " -o " + trim.string());
  ASSERT_EQ(b.exitCode, 0) << b.output;
  const nlohmann::json kept = nlohmann::json::parse(bytes(keep / "report/summary.json"));
  const nlohmann::json trimmed = nlohmann::json::parse(bytes(trim / "report/summary.json"));
  EXPECT_EQ(kept["unseen_fill"]["seen_triangles"], 0);  // not run
  EXPECT_EQ(kept["unseen_fill"]["trimmed_voxels"], 0);
  EXPECT_GT(trimmed["unseen_fill"]["seen_triangles"].get<int>(), 0);
  EXPECT_GE(trimmed["unseen_fill"]["trimmed_voxels"].get<int>(), 0);
}

TEST_F(ReconstructCommand, MissingIntrinsicsNameTheFileAndFrame) {
  fs::remove(dir_ / "capture/depth/cam1.json");
  expectBadInput({"cam1.json", "rest frame 0", "does not exist"});
}

TEST_F(ReconstructCommand, MismatchedIntrinsicsNameTheImageAndFrame) {
  const fs::path json = dir_ / "capture/depth/cam2.json";
  nlohmann::json camera = nlohmann::json::parse(bytes(json));
  camera["width"] = 30;
  std::ofstream(json) << camera.dump();
  expectBadInput({"rest_000000_cam2.png", "rest frame 0", "mismatched intrinsics"});
}

TEST_F(ReconstructCommand, ImagesOfDifferentSizesNameTheImageAndFrame) {
  softfit::DepthImage16 image;
  image.width = 16;
  image.height = 16;
  image.values.assign(256, 1000);
  softfit::writeDepthPng((dir_ / "capture/depth/frame_000002_cam1.png").string(), image);
  expectBadInput({"frame_000002_cam1.png", "frame 2", "16 x 16"});
}

TEST_F(ReconstructCommand, AllZeroFrameNamesTheImageAndFrame) {
  softfit::DepthImage16 image;
  image.width = image.height = 32;
  image.values.assign(32 * 32, 0);
  softfit::writeDepthPng((dir_ / "capture/depth/frame_000003_cam0.png").string(), image);
  expectBadInput({"frame_000003_cam0.png", "frame 3", "all-zero"});
}

TEST_F(ReconstructCommand, NoRestFramesNamesCaptureJson) {
  const fs::path json = dir_ / "capture/capture.json";
  nlohmann::json capture = nlohmann::json::parse(bytes(json));
  capture.erase("rest_frames");
  std::ofstream(json) << capture.dump();
  expectBadInput({"capture.json", "rest_frames"});
}

TEST_F(ReconstructCommand, ObjectMovingDuringRestFramesNamesTheRestFrame) {
  for (int c = 0; c < 4; ++c) {
    const std::string cam = "_cam" + std::to_string(c) + ".png";
    fs::copy_file(dir_ / "capture/depth" / ("frame_000004" + cam), dir_ / "capture/depth" / ("rest_000001" + cam),
                  fs::copy_options::overwrite_existing);
  }
  expectBadInput({"rest frame 1", "moves", "rest_000001_cam0.png"});
}

TEST_F(ReconstructCommand, ObjectNeverInViewNamesTheRestFrame) {
  writeEmptySceneCapture(dir_ / "capture");
  expectBadInput({"rest frame 0", "not in view", "rest_000000_cam0.png"});
}

TEST_F(ReconstructCommand, BackgroundFramesMarkStaticBackground) {
  // Background frame 0 = the rest images of a capture with the same cameras and no box in view.
  writeEmptySceneCapture(dir_ / "empty");
  const fs::path json = dir_ / "capture/capture.json";
  nlohmann::json capture = nlohmann::json::parse(bytes(json));
  nlohmann::json views = nlohmann::json::array();
  for (int c = 0; c < 4; ++c) {
    const std::string cam = "cam" + std::to_string(c);
    fs::copy_file(dir_ / "empty/depth" / ("rest_000000_" + cam + ".png"), dir_ / "capture/depth" / ("background_" + cam + ".png"));
    views.push_back({{"image", "depth/background_" + cam + ".png"}, {"intrinsics", "depth/" + cam + ".json"}});
  }
  capture["background_frames"] = nlohmann::json::array({{{"frame", 0}, {"depth", views}}});
  std::ofstream(json) << capture.dump();
  softfit::loadCapture((dir_ / "capture").string());  // the key is accepted
  const fs::path out = dir_ / "out";
  const CommandResult r = run("reconstruct " + (dir_ / "capture").string() + " -o " + out.string());
  ASSERT_EQ(r.exitCode, 0) << r.output;
  const softfit::Capture observed = softfit::loadCapture((out / "observations").string());
  EXPECT_GT(observed.frames[4].cloud.size(), 100);
}

// Data loss: an output folder that is the current folder, the capture or a folder
// holding it is refused before any work (exit 2, naming -o), and every file of the
// user's is still there; a rerun into a folder with the user's files replaces only what
// reconstruct wrote.
class ReconstructOutputFolder : public ReconstructCommand {
 protected:
  void SetUp() override {
    ReconstructCommand::SetUp();
    std::ofstream(dir_ / "sentinel.txt") << "the user's\n";
    std::ofstream(dir_ / "capture" / "sentinel.txt") << "the user's too\n";
    captureJson_ = bytes(dir_ / "capture" / "capture.json");
  }
  void expectRefusedAndIntact(const CommandResult& r) {
    EXPECT_EQ(r.exitCode, 2) << r.output;
    EXPECT_NE(r.output.find("-o "), std::string::npos) << r.output;
    EXPECT_EQ(r.output.find("ground"), std::string::npos) << "the work started:\n" << r.output;
    EXPECT_EQ(bytes(dir_ / "sentinel.txt"), "the user's\n");
    EXPECT_EQ(bytes(dir_ / "capture" / "sentinel.txt"), "the user's too\n");
    EXPECT_EQ(bytes(dir_ / "capture" / "capture.json"), captureJson_);
    EXPECT_TRUE(fs::exists(dir_ / "capture" / "depth"));
    EXPECT_FALSE(fs::exists(dir_ / "scene.json"));
    EXPECT_FALSE(fs::exists(dir_ / "capture" / "scene.json"));
  }
  std::string captureJson_;
};

TEST_F(ReconstructOutputFolder, TheCurrentFolderIsRefused) {
  const fs::path previous = fs::current_path();
  fs::current_path(dir_);
  const CommandResult r = run("reconstruct capture -o .");
  fs::current_path(previous);
  expectRefusedAndIntact(r);
  EXPECT_NE(r.output.find("current folder"), std::string::npos) << r.output;
}

TEST_F(ReconstructOutputFolder, AFolderHoldingTheCaptureIsRefused) {
  const CommandResult r = run("reconstruct " + (dir_ / "capture").string() + " -o " + dir_.string());
  expectRefusedAndIntact(r);
  EXPECT_NE(r.output.find("holds the input"), std::string::npos) << r.output;
}

TEST_F(ReconstructOutputFolder, TheCaptureItselfIsRefused) {
  const CommandResult r = run("reconstruct " + (dir_ / "capture").string() + " -o " + (dir_ / "capture/").string());
  expectRefusedAndIntact(r);
  EXPECT_NE(r.output.find("is the input"), std::string::npos) << r.output;
}

TEST_F(ReconstructOutputFolder, ARerunKeepsTheUsersFiles) {
  const fs::path out = dir_ / "out";
  fs::create_directories(out);
  std::ofstream(out / "notes.txt") << "kept\n";
  ASSERT_EQ(run("reconstruct " + (dir_ / "capture").string() + " -o " + out.string()).exitCode, 0);
  const std::string scene = bytes(out / "scene.json");
  const CommandResult again = run("reconstruct " + (dir_ / "capture").string() + " -o " + out.string());
  ASSERT_EQ(again.exitCode, 0) << again.output;
  EXPECT_EQ(bytes(out / "scene.json"), scene);
  EXPECT_EQ(bytes(out / "notes.txt"), "kept\n");
  EXPECT_TRUE(fs::exists(out / "observations/capture.json"));
  // A scene.json of the user's is never replaced: refused before any work.
  const fs::path mine = dir_ / "mine";
  fs::create_directories(mine);
  std::ofstream(mine / "scene.json") << "{}";
  const CommandResult refused = run("reconstruct " + (dir_ / "capture").string() + " -o " + mine.string());
  EXPECT_EQ(refused.exitCode, 2) << refused.output;
  EXPECT_NE(refused.output.find("holds scene.json"), std::string::npos) << refused.output;
  EXPECT_EQ(bytes(mine / "scene.json"), "{}");
  EXPECT_EQ(bytes(dir_ / "sentinel.txt"), "the user's\n");
}

// Options and capture entries get the checks every reader of them makes, before any work:
// the scene reconstruct would write passes the scene reader's checks (exit 2, the option
// or field named, nothing written).
TEST_F(ReconstructCommand, OptionsThatWouldWriteAnUnreadableSceneAreRefused) {
  const fs::path out = dir_ / "out";
  const std::string capture = (dir_ / "capture").string();
  const std::pair<const char*, const char*> cases[] = {
      {"--stride 2147483647", "--stride"},      {"--stride 0", "--stride"},
      {"--voxel 0", "--voxel"},                 {"--voxel -1", "--voxel"},
      {"--voxel nan", "--voxel"},               {"--cell-size 0", "--cell-size"},
      {"--voxel 1e9", "--voxel = 1e+09 m"},     {"--cell-size 1e-9", "--cell-size = 1e-09 m"},
      {"--youngs inf", "--youngs"},             {"--youngs 1e300", "--youngs = 1e+300"},
      {"--density 1e300", "--density = 1e+300"}, {"--poisson -1.5", "--poisson"},
      {"--material bogus", "--material"},
      {"--velocity-frames -1", "--velocity-frames"}, {"--velocity-frames 1001", "--velocity-frames"},
  };
  for (const auto& [option, named] : cases) {
    const CommandResult r = run("reconstruct " + capture + " " + option + " -o " + out.string());
    EXPECT_EQ(r.exitCode, 2) << option << ": " << r.output;
    EXPECT_NE(r.output.find(named), std::string::npos) << option << ": " << r.output;
    EXPECT_FALSE(fs::exists(out)) << option;
  }
}

TEST_F(ReconstructCommand, CaptureEntriesGetTheCaptureReadersChecks) {
  const fs::path json = dir_ / "capture/capture.json";
  const nlohmann::json original = nlohmann::json::parse(bytes(json));
  const auto expectRefused = [&](const std::function<void(nlohmann::json&)>& edit, const std::vector<std::string>& named) {
    nlohmann::json capture = original;
    edit(capture);
    std::ofstream(json) << capture.dump();
    expectBadInput(named);
  };
  expectRefused([](nlohmann::json& c) { c["dt"] = 1e-300; }, {"capture.json", "dt = 1e-300"});
  expectRefused([](nlohmann::json& c) { c["dt"] = 1e300; }, {"capture.json", "dt = 1e+300"});
  expectRefused([](nlohmann::json& c) { c["fps"] = 30; }, {"capture.json", "fps"});
  expectRefused([](nlohmann::json& c) { c["frames"][0]["mask"] = "m.png"; }, {"capture.json", "mask"});
  expectRefused([](nlohmann::json& c) { c["frames"][1]["weight"] = -1; }, {"frames[1].weight"});
  expectRefused([](nlohmann::json& c) { c["frames"][2]["depth"] = nlohmann::json::array(); }, {"frames[2]", "no data"});
  expectRefused([](nlohmann::json& c) { c["frame_count"] = 2000000000; }, {"frame 5 is missing"});
}

TEST_F(ReconstructCommand, FrameWeightsAndCamerasSpelledTwoWaysSurvive) {
  const fs::path json = dir_ / "capture/capture.json";
  nlohmann::json capture = nlohmann::json::parse(bytes(json));
  capture["frames"][3]["weight"] = 0.0;
  // One camera's intrinsics under another spelling in one frame: still one camera.
  const std::string intrinsics = capture["frames"][2]["depth"][0]["intrinsics"];
  capture["frames"][2]["depth"][0]["intrinsics"] = fs::path(intrinsics).parent_path().string() + "/./" +
                                                   fs::path(intrinsics).filename().string();
  std::ofstream(json) << capture.dump();
  const fs::path out = dir_ / "out";
  const CommandResult r = run("reconstruct " + (dir_ / "capture").string() + " -o " + out.string());
  ASSERT_EQ(r.exitCode, 0) << r.output;
  const nlohmann::json written = nlohmann::json::parse(bytes(out / "observations/capture.json"));
  EXPECT_EQ(written["frames"][3]["weight"], 0.0);
  EXPECT_EQ(written["frames"][2]["weight"], 1.0);
  const softfit::Capture observed = softfit::loadCapture((out / "observations").string());
  EXPECT_EQ(observed.frames[3].weight, 0.0);
  const nlohmann::json summary = nlohmann::json::parse(bytes(out / "report/summary.json"));
  EXPECT_NE(r.output.find("4 cameras"), std::string::npos) << r.output;
}

TEST_F(ReconstructCommand, AnObjectInNoMotionFrameIsRefused) {
  // Motion frames of the empty scene after rest frames of the box.
  writeEmptySceneCapture(dir_ / "empty");
  for (int f = 0; f < 5; ++f)
    for (int c = 0; c < 4; ++c) {
      const std::string name = "frame_00000" + std::to_string(f) + "_cam" + std::to_string(c) + ".png";
      fs::copy_file(dir_ / "empty/depth" / ("rest_000000_cam" + std::to_string(c) + ".png"), dir_ / "capture/depth" / name,
                    fs::copy_options::overwrite_existing);
    }
  expectBadInput({"capture.json", "the object is in no motion frame"});
}

// Seeded mutations of a tiny raw capture (capture.json, an intrinsics file, a depth PNG):
// reconstruct either succeeds or exits 2 with nothing written, within its time limit;
// never a crash (exit 134/139), a hang (124), an internal error (4) or a half-written OUT.
TEST_F(ReconstructCommand, CorruptedCapturesExitZeroOrTwo) {
  struct Target {
    const char* file;
    int count;
  };
  const Target targets[] = {{"capture.json", 24}, {"depth/cam1.json", 12}, {"depth/rest_000000_cam0.png", 6}};
  int refused = 0, accepted = 0;
  for (const Target& t : targets) {
    const fs::path file = dir_ / "capture" / t.file;
    const std::string original = bytes(file);
    const std::vector<std::string> mutations = softfit::testing::mutationsOf(original, t.count, 47);
    for (std::size_t k = 0; k < mutations.size(); ++k) {
      std::ofstream(file, std::ios::binary) << mutations[k];
      const fs::path out = dir_ / ("out_" + std::to_string(k));
      const CommandResult r = softfit::testing::runSoftfit("reconstruct " + (dir_ / "capture").string() + " -o " +
                                                               out.string(), 120);
      EXPECT_TRUE(r.exitCode == 0 || r.exitCode == 2) << t.file << " mutation " << k << ": exit " << r.exitCode << "\n"
                                                      << r.output;
      if (r.exitCode == 2) {
        ++refused;
        EXPECT_FALSE(fs::exists(out)) << t.file << " mutation " << k;
        EXPECT_NE(r.output.find("error"), std::string::npos) << r.output;
      } else if (r.exitCode == 0) {
        ++accepted;
        EXPECT_TRUE(fs::exists(out / "scene.json")) << t.file << " mutation " << k;
      }
      fs::remove_all(out);
    }
    std::ofstream(file, std::ios::binary) << original;
  }
  EXPECT_GT(refused, 10);  // the mutations do break the inputs
  std::printf("reconstruct on %d corrupted captures: %d refused (exit 2), %d accepted\n", refused + accepted, refused,
              accepted);
}

// The capture's truth.json is checked when the run starts: a bad one is a warning and is
// not copied (it would fail the later fit); an intrinsics value out of range, or a camera
// with no valid depth, is refused naming the file.
TEST_F(ReconstructCommand, ABadTruthFileIsAWarningAndBadCamerasAreRefused) {
  fs::remove(dir_ / "capture/truth.json");
  fs::create_directories(dir_ / "capture/truth.json");
  const fs::path out = dir_ / "out";
  const CommandResult r = run("reconstruct " + (dir_ / "capture").string() + " -o " + out.string());
  ASSERT_EQ(r.exitCode, 0) << r.output;
  EXPECT_NE(r.output.find("warning: "), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("truth.json"), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(out / "observations/truth.json"));
  fs::remove_all(out);

  const fs::path intrinsics = dir_ / "capture/depth/cam3.json";
  const std::string original = bytes(intrinsics);
  nlohmann::json camera = nlohmann::json::parse(original);
  camera["fx"] = 1e300;
  std::ofstream(intrinsics) << camera.dump();
  expectBadInput({"cam3.json", "fx"});
  std::ofstream(intrinsics) << original;

  // Every depth of camera 2 beyond the sensor's range: a depth scale 1000x too large.
  camera = nlohmann::json::parse(bytes(dir_ / "capture/depth/cam2.json"));
  camera["depth_scale"] = camera["depth_scale"].get<double>() * 1000.0;
  std::ofstream(dir_ / "capture/depth/cam2.json") << camera.dump();
  const CommandResult far = run("reconstruct " + (dir_ / "capture").string() + " -o " + out.string());
  EXPECT_EQ(far.exitCode, 2) << far.output;
  EXPECT_NE(far.output.find("cam2.json"), std::string::npos) << far.output;
  EXPECT_FALSE(fs::exists(out));
}

}  // namespace
