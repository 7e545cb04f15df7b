// End-to-end: the softfit binary runs a scene and writes ParaView output; bad input
// gives exit code 2 and a message naming the file and field.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "support/run_command.h"

namespace {

namespace fs = std::filesystem;

using softfit::testing::CommandResult;
CommandResult run(const std::string& arguments) { return softfit::testing::runSoftfit(arguments); }

// One Newton iteration cannot converge a large nonlinear step: step 1 of 3 fails.
const char* const kFailingScene = R"({
  "box": {"min": [0, 0, 0], "max": [1, 1, 1], "cells": [2, 2, 2]},
  "material": {"model": "neo_hookean", "youngs_modulus": 1e3, "poisson_ratio": 0.3, "density": 1},
  "initial": {"angular_velocity": [0, 0, 50]},
  "integrator": {"type": "backward_euler", "max_iterations": 1},
  "time": {"dt": 0.1, "steps": 3}
})";

class SimulateCommand : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("softfit_apps_test_" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string writeScene(const std::string& body) {
    const std::string path = (dir_ / "scene.json").string();
    std::ofstream(path) << body;
    return path;
  }
  fs::path dir_;
};

TEST_F(SimulateCommand, WritesParaViewFramesAndSurface) {
  const std::string scene = writeScene(R"({
    "box": {"min": [0, 0.2, 0], "max": [0.4, 0.6, 0.4], "cells": [2, 2, 2]},
    "material": {"model": "neo_hookean", "youngs_modulus": 1e4, "poisson_ratio": 0.3, "density": 100},
    "ground": {"normal": [0, 1, 0], "offset": 0},
    "integrator": {"type": "bdf2"},
    "time": {"dt": 0.01, "steps": 6},
    "output": {"every": 2}
  })");
  const CommandResult r = run("simulate " + scene + " -o " + (dir_ / "out").string());
  ASSERT_EQ(r.exitCode, 0) << r.output;
  EXPECT_NE(r.output.find("6/6"), std::string::npos) << r.output;  // progress line
  EXPECT_TRUE(fs::exists(dir_ / "out" / "simulation.pvd"));
  EXPECT_TRUE(fs::exists(dir_ / "out" / "final_surface.obj"));
  int frames = 0;
  for (const auto& f : fs::directory_iterator(dir_ / "out" / "frames")) frames += f.path().extension() == ".vtu";
  EXPECT_EQ(frames, 4);  // steps 0, 2, 4, 6
  std::ifstream pvd(dir_ / "out" / "simulation.pvd");
  std::stringstream content;
  content << pvd.rdbuf();
  EXPECT_NE(content.str().find("frame_000006.vtu"), std::string::npos);
}

TEST_F(SimulateCommand, BadInputExitsWithCodeTwoAndNamesTheField) {
  const std::string scene = writeScene(R"({
    "box": {"min": [0, 0, 0], "max": [1, 1, 1], "cells": [1, 1, 1]},
    "material": {"poisson_ratio": 0.5}
  })");
  const CommandResult r = run("simulate " + scene + " -o " + (dir_ / "out").string());
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_NE(r.output.find("scene.json"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("poisson_ratio"), std::string::npos) << r.output;
}

TEST_F(SimulateCommand, BadGridOptionExitsWithCodeTwoAndNamesTheField) {
  const std::string scene = writeScene(R"({
    "sdf": {"type": "sphere", "radius": 0.2, "cell_size": 0.05, "min_cell_fraction": 1.5},
    "material": {"youngs_modulus": 1e4, "poisson_ratio": 0.3, "density": 100},
    "time": {"dt": 0.01, "steps": 1}
  })");
  const CommandResult r = run("simulate " + scene + " -q -o " + (dir_ / "out").string());
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_NE(r.output.find("scene.json"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("sdf.min_cell_fraction"), std::string::npos) << r.output;
}

TEST_F(SimulateCommand, DeviceOptionRunsOnTheCpuAndRefusesCudaWithoutAGpuOrBackend) {
  const std::string scene = writeScene(R"({
    "box": {"min": [0, 0.2, 0], "max": [0.4, 0.6, 0.4], "cells": [1, 1, 1]},
    "material": {"model": "warped_corotated"},
    "integrator": {"type": "newmark_theta"},
    "time": {"dt": 0.01, "steps": 2}
  })");
  EXPECT_EQ(run("simulate " + scene + " --device cpu -q -o " + (dir_ / "cpu").string()).exitCode, 0);
  const CommandResult unknown = run("simulate " + scene + " --device tpu -q -o " + (dir_ / "x").string());
  EXPECT_EQ(unknown.exitCode, 2);
  EXPECT_NE(unknown.output.find("--device"), std::string::npos) << unknown.output;
  // CI has no GPU: either the build has no CUDA backend or no device is usable; both
  // are clear input errors. (With a GPU the run succeeds.)
  const CommandResult cuda = run("simulate " + scene + " --device cuda -q -o " + (dir_ / "gpu").string());
  if (cuda.exitCode != 0) {
    EXPECT_EQ(cuda.exitCode, 2) << cuda.output;
    EXPECT_NE(cuda.output.find("--device cuda"), std::string::npos) << cuda.output;
  }
}

TEST_F(SimulateCommand, FailedSolveExitsWithCodeThree) {
  // One Newton iteration cannot converge a large nonlinear step: the run must stop
  // cleanly with a message naming the step, not crash or write NaNs.
  const std::string scene = writeScene(kFailingScene);
  const CommandResult r = run("simulate " + scene + " -q -o " + (dir_ / "out").string());
  EXPECT_EQ(r.exitCode, 3) << r.output;
  EXPECT_NE(r.output.find("step 1 of 3 failed"), std::string::npos) << r.output;
}

TEST_F(SimulateCommand, AFailedRunIntoAnEarlierRunsFolderNeverLooksComplete) {
  // Issue 25: a failed run left the earlier run's frames and final_surface.obj next to a
  // well-formed simulation.pvd. Only a finished run writes run_complete.txt.
  const fs::path out = dir_ / "out";
  const std::string good = writeScene(R"({
    "box": {"min": [0, 0.2, 0], "max": [0.4, 0.6, 0.4], "cells": [1, 1, 1]},
    "time": {"dt": 0.01, "steps": 4}
  })");
  ASSERT_EQ(run("simulate " + good + " -q -o " + out.string()).exitCode, 0);
  EXPECT_TRUE(fs::exists(out / "run_complete.txt"));
  EXPECT_TRUE(fs::exists(out / "frames" / "frame_000004.vtu"));
  std::ofstream(out / "frames" / "notes.txt") << "the user's own file\n";
  const std::string failing = writeScene(kFailingScene);
  EXPECT_EQ(run("simulate " + failing + " -q -o " + out.string()).exitCode, 3);
  EXPECT_FALSE(fs::exists(out / "run_complete.txt"));
  EXPECT_FALSE(fs::exists(out / "final_surface.obj"));
  EXPECT_FALSE(fs::exists(out / "frames" / "frame_000004.vtu"));
  EXPECT_TRUE(fs::exists(out / "frames" / "notes.txt"));  // only softfit's own names are removed
}

TEST_F(SimulateCommand, MissingSceneFileIsAUsageError) {
  const CommandResult r = run("simulate " + (dir_ / "nope.json").string());
  EXPECT_NE(r.exitCode, 0);
  EXPECT_NE(r.output.find("nope.json"), std::string::npos) << r.output;
}

}  // namespace
