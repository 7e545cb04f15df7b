// End-to-end: `softfit solvers` compares step solvers on one step of a scene.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "support/run_command.h"

namespace {

namespace fs = std::filesystem;
using softfit::testing::CommandResult;

class SolversCommand : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("softfit_solvers_test_" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string writeScene(const std::string& material) {
    const std::string path = (dir_ / "scene.json").string();
    std::ofstream(path) << R"({
      "box": {"min": [0, 0, 0], "max": [1, 0.25, 0.25], "cells": [4, 1, 1]},
      "material": {"model": ")" << material << R"(", "youngs_modulus": 1e5, "poisson_ratio": 0.4, "density": 1000},
      "gravity": [0, -9.81, 0],
      "dirichlet": [{"box": {"min": [-1, -1, -1], "max": [0.001, 1, 1]}}],
      "integrator": {"type": "backward_euler"},
      "time": {"dt": 0.05, "steps": 2}
    })";
    return path;
  }
  fs::path dir_;
};

TEST_F(SolversCommand, PrintsOneRowPerSolverWithTheErrorAgainstTheReference) {
  const CommandResult r = softfit::testing::runSoftfit(
      "solvers " + writeScene("arap") + " --after-steps 1 --tolerance 1e-12 --solvers newton-clamp,newton-abs,newton-adaptive,lbfgs,pd");
  ASSERT_EQ(r.exitCode, 0) << r.output;
  for (const char* row : {"| newton-clamp |", "| newton-abs |", "| newton-adaptive |", "| lbfgs |", "| pd |"})
    EXPECT_NE(r.output.find(row), std::string::npos) << row << "\n" << r.output;
  EXPECT_NE(r.output.find("reference: tight Newton"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("failed"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("| no |"), std::string::npos) << r.output;  // all converged
}

TEST_F(SolversCommand, ReportsSolversThatDoNotApplyAndRejectsUnknownNames) {
  const std::string scene = writeScene("neo_hookean");
  const CommandResult pd = softfit::testing::runSoftfit("solvers " + scene + " --solvers pd,newton-clamp");
  EXPECT_EQ(pd.exitCode, 0) << pd.output;
  EXPECT_NE(pd.output.find("failed: solver 'pd'"), std::string::npos) << pd.output;
  // Issue 25: when every requested solver fails the run is a failed solve (exit 3), not a success.
  const CommandResult none = softfit::testing::runSoftfit("solvers " + scene + " --solvers pd");
  EXPECT_EQ(none.exitCode, 3) << none.output;
  EXPECT_NE(none.output.find("failed: solver 'pd'"), std::string::npos) << none.output;
  EXPECT_NE(none.output.find("every requested solver failed"), std::string::npos) << none.output;
  const CommandResult bad = softfit::testing::runSoftfit("solvers " + scene + " --solvers newton-svd");
  EXPECT_EQ(bad.exitCode, 2) << bad.output;
  EXPECT_NE(bad.output.find("--solvers 'newton-svd'"), std::string::npos) << bad.output;
}

}  // namespace
