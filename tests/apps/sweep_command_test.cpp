// `softfit sweep`: the cost (and gradient) over a grid or Latin hypercube, checked
// against the cost `softfit fit` evaluates, finite differences and bad --grid specs.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "support/run_command.h"
#include "sweep_test_scene.h"

namespace {

namespace fs = std::filesystem;
using softfit::testing::runSoftfit;

// The rows of a CSV file as fields (no quoted commas in the numeric columns we read).
std::vector<std::vector<std::string>> readCsv(const fs::path& path) {
  std::vector<std::vector<std::string>> rows;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    std::vector<std::string> fields;
    std::stringstream stream(line);
    std::string field;
    while (std::getline(stream, field, ',')) fields.push_back(field);
    rows.push_back(fields);
  }
  return rows;
}

class SweepCommand : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string log;
    fixture_ = softfit::testing::makeSweepFixture(
        fs::temp_directory_path() / ("softfit_sweep_test_" + std::to_string(::getpid())), log);
    ASSERT_FALSE(fixture_.capture.empty()) << log;
  }
  void TearDown() override { fs::remove_all(fixture_.dir); }
  std::string sweep(const std::string& arguments) const {
    return "sweep " + fixture_.scene.string() + " --observations " + fixture_.capture.string() + " " + arguments;
  }
  softfit::testing::SweepFixture fixture_;
};

TEST_F(SweepCommand, GridCostsAreTheFitsCostAtThePoint) {
  const fs::path out = fixture_.dir / "sweep";
  const auto r = runSoftfit(sweep("--grid E=3000:4000:2,nu=0.3:0.35:2 -o " + out.string()));
  ASSERT_EQ(r.exitCode, 0) << r.output;
  for (const char* f : {"sweep.csv", "sweep.png", "run_complete.txt"}) EXPECT_TRUE(fs::exists(out / f)) << f;
  const auto rows = readCsv(out / "sweep.csv");
  ASSERT_EQ(rows.size(), 5u);
  EXPECT_EQ(rows[0], (std::vector<std::string>{"index", "E", "nu", "cost", "status"}));
  const double expected[4][2] = {{3000, 0.3}, {3000, 0.35}, {4000, 0.3}, {4000, 0.35}};  // the last axis fastest
  for (int i = 0; i < 4; ++i) {
    const auto& row = rows[i + 1];
    ASSERT_EQ(row.size(), 5u);
    EXPECT_EQ(std::stod(row[1]), expected[i][0]);
    EXPECT_EQ(std::stod(row[2]), expected[i][1]);
    EXPECT_EQ(row[4], "ok");
    // The fit's cost at its start (history.csv, iteration 0) is the same cost; it sums
    // the frames in the reverse pass' order and starts from exp(log E), hence not bitwise.
    const fs::path fitOut = fixture_.dir / ("fit" + std::to_string(i));
    const auto fit = runSoftfit("fit " + fixture_.scene.string() + " --observations " + fixture_.capture.string() +
                                " --params E,nu --start E=" + row[1] + ",nu=" + row[2] +
                                " --max-iterations 1 -q -o " + fitOut.string());
    ASSERT_TRUE(fit.exitCode == 0) << fit.output;
    const auto history = readCsv(fitOut / "history.csv");
    ASSERT_GE(history.size(), 2u);
    ASSERT_EQ(history[0][3], "cost");
    const double fitCost = std::stod(history[1][3]), sweepCost = std::stod(row[3]);
    EXPECT_NEAR(sweepCost, fitCost, 1e-9 * fitCost + 1e-25) << "point " << i;
  }
  // The truth (E 3000, nu 0.3) is the lowest point.
  EXPECT_NE(r.output.find("lowest cost"), std::string::npos);
  EXPECT_NE(r.output.find("E=3000 nu=0.3 (point 0)"), std::string::npos) << r.output;
}

TEST_F(SweepCommand, GradientColumnsMatchCentralDifferencesOfTheCost) {
  const fs::path out = fixture_.dir / "line";
  const double h = 0.1;  // E around 3500 (off the minimum)
  const auto r = runSoftfit(sweep("--grid E=3499.9:3500.1:3 --gradient -q -o " + out.string()));
  ASSERT_EQ(r.exitCode, 0) << r.output;
  EXPECT_TRUE(fs::exists(out / "sweep.png"));  // the line plot
  const auto rows = readCsv(out / "sweep.csv");
  ASSERT_EQ(rows.size(), 4u);
  EXPECT_EQ(rows[0], (std::vector<std::string>{"index", "E", "cost", "dcost_dE", "status"}));
  const double fd = (std::stod(rows[3][2]) - std::stod(rows[1][2])) / (2.0 * h);
  const double adjoint = std::stod(rows[2][3]);
  EXPECT_NEAR(adjoint, fd, 1e-5 * std::abs(fd)) << r.output;
  EXPECT_NE(adjoint, 0.0);
}

TEST_F(SweepCommand, DrawsFitPathsAndRefusesHistoriesWithoutTheSweptColumns) {
  const fs::path fit = fixture_.dir / "fitE";
  const auto f = runSoftfit("fit " + fixture_.scene.string() + " --observations " + fixture_.capture.string() +
                            " --params E --start E=3800 --max-iterations 3 -q -o " + fit.string());
  ASSERT_EQ(f.exitCode, 0) << f.output;
  const std::string history = (fit / "history.csv").string();
  const fs::path plain = fixture_.dir / "plain", drawn = fixture_.dir / "drawn", bad = fixture_.dir / "bad";
  ASSERT_EQ(runSoftfit(sweep("--grid E=3000:4000:3 -q -o " + plain.string())).exitCode, 0);
  const auto r = runSoftfit(sweep("--grid E=3000:4000:3 --path " + history + " -q -o " + drawn.string()));
  ASSERT_EQ(r.exitCode, 0) << r.output;
  EXPECT_EQ(softfit::testing::fileBytes((plain / "sweep.csv").string()),
            softfit::testing::fileBytes((drawn / "sweep.csv").string()));
  EXPECT_NE(softfit::testing::fileBytes((plain / "sweep.png").string()),
            softfit::testing::fileBytes((drawn / "sweep.png").string()));  // the path is on the plot
  // Bad paths are bad input (exit 2), found before any point is evaluated.
  const auto noColumn = runSoftfit(sweep("--grid E=3000:4000:2,nu=0.3:0.35:2 --path " + history + " -q -o " + bad.string()));
  EXPECT_EQ(noColumn.exitCode, 2) << noColumn.output;
  EXPECT_NE(noColumn.output.find(history + ": no column \"nu\""), std::string::npos) << noColumn.output;
  const auto missing = runSoftfit(sweep("--grid E=3000:4000:2 --path " + (fit / "nope.csv").string() + " -q -o " + bad.string()));
  EXPECT_EQ(missing.exitCode, 2) << missing.output;
  EXPECT_NE(missing.output.find("nope.csv: cannot open"), std::string::npos) << missing.output;
  EXPECT_FALSE(fs::exists(bad / "sweep.csv"));
}

TEST_F(SweepCommand, LatinHypercubeHasOnePointPerStratumAndIsDeterministic) {
  const fs::path a = fixture_.dir / "lhs_a", b = fixture_.dir / "lhs_b";
  const std::string args = "--lhs 5 --seed 3 --grid E=2000:4000,nu=0.25:0.35 -q -o ";
  const auto ra = runSoftfit(sweep(args + a.string()));
  ASSERT_EQ(ra.exitCode, 0) << ra.output;
  const auto rb = runSoftfit(sweep(args + b.string()));
  ASSERT_EQ(rb.exitCode, 0) << rb.output;
  EXPECT_EQ(softfit::testing::fileBytes((a / "sweep.csv").string()),
            softfit::testing::fileBytes((b / "sweep.csv").string()));
  EXPECT_TRUE(fs::exists(a / "sweep.png"));  // scattered points
  const auto rows = readCsv(a / "sweep.csv");
  ASSERT_EQ(rows.size(), 6u);
  std::vector<int> eStrata(5, 0), nuStrata(5, 0);
  for (int i = 1; i <= 5; ++i) {
    ++eStrata.at(static_cast<int>((std::stod(rows[i][1]) - 2000.0) / 400.0));
    ++nuStrata.at(static_cast<int>((std::stod(rows[i][2]) - 0.25) / 0.02));
  }
  for (int k = 0; k < 5; ++k) {
    EXPECT_EQ(eStrata[k], 1) << "E stratum " << k;
    EXPECT_EQ(nuStrata[k], 1) << "nu stratum " << k;
  }
}

TEST_F(SweepCommand, BadGridSpecsExitTwoNamingTheOption) {
  const fs::path out = fixture_.dir / "bad";
  for (const char* grid : {"E=1e3:1e4", "E1e3:1e4:4", "E=a:1e4:4", "E=1e4:1e3:4", "E=1e3:1e4:0", "E=1e3:1e4:2.5",
                           "E=1e3:1e4:4,E=1:2:2", "bogus=1:2:2", "nu=0.2:0.6:3", "gravity=1:2:2", "E=1e3:1e3:3",
                           "E=1e3:1e4:4,", "E=1e3:1e4:1001,nu=0.2:0.3:1000"}) {
    const auto r = runSoftfit(sweep(std::string("--grid ") + grid + " -q -o " + out.string()));
    EXPECT_EQ(r.exitCode, 2) << grid << ": " << r.output;
    EXPECT_NE(r.output.find("--grid"), std::string::npos) << grid << ": " << r.output;
    EXPECT_FALSE(fs::exists(out / "sweep.csv")) << grid;
  }
  const auto counted = runSoftfit(sweep("--lhs 4 --grid E=1e3:1e4:4 -q -o " + out.string()));
  EXPECT_EQ(counted.exitCode, 2) << counted.output;
  EXPECT_NE(counted.output.find("--lhs"), std::string::npos) << counted.output;
  const auto zero = runSoftfit(sweep("--lhs 0 --grid E=1e3:1e4 -q -o " + out.string()));
  EXPECT_EQ(zero.exitCode, 2) << zero.output;
  EXPECT_NE(zero.output.find("--lhs"), std::string::npos) << zero.output;
}

// --path names a regular file (a FIFO would block forever, a device never ends); a
// regional parameter names a region the scene has; an axis lies in its parameter's range.
TEST_F(SweepCommand, PathsRegionsAndRangesAreCheckedBeforeAnyPoint) {
  const fs::path out = fixture_.dir / "bad";
  ASSERT_EQ(::mkfifo((fixture_.dir / "fifo").c_str(), 0600), 0);
  fs::create_directories(fixture_.dir / "folder");
  for (const std::string& path : {(fixture_.dir / "fifo").string(), std::string("/dev/zero"),
                                   (fixture_.dir / "folder").string()}) {
    const auto r = runSoftfit(sweep("--grid E=3000:4000:2 --path " + path + " -q -o " + out.string()), 60);
    EXPECT_EQ(r.exitCode, 2) << path << ": " << r.output;
    EXPECT_NE(r.output.find(path + ": cannot open fit history"), std::string::npos) << r.output;
    EXPECT_EQ(r.output.find("empty, expected a header"), std::string::npos) << r.output;
  }
  const auto region = runSoftfit(sweep("--grid E@5=3000:4000:2 -q -o " + out.string()), 60);
  EXPECT_EQ(region.exitCode, 2) << region.output;
  EXPECT_NE(region.output.find("E@5: no element in material region 5"), std::string::npos) << region.output;
  const auto range = runSoftfit(sweep("--grid alpha1=-50:1:2 -q -o " + out.string()), 60);
  EXPECT_EQ(range.exitCode, 2) << range.output;
  EXPECT_NE(range.output.find("--grid alpha1 = -50: must lie in [0, 1e+06]"), std::string::npos) << range.output;
  EXPECT_FALSE(fs::exists(out / "sweep.csv"));
}

TEST(SweepCommandFailures, PointsWhoseSolveFailsAreMarkedAndTheOthersEvaluated) {
  const fs::path dir = fs::temp_directory_path() / ("softfit_sweep_fail_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  // Newton (clamped eigenvalues) capped at 6 iterations: a body thrown at the ground
  // faster than ~7.5 m/s cannot be simulated.
  std::ofstream(dir / "scene.json") << R"({
    "box": {"min": [-0.15, 0.05, -0.15], "max": [0.15, 0.35, 0.15], "cells": [1, 1, 1]},
    "material": {"model": "neo_hookean", "youngs_modulus": 3000, "poisson_ratio": 0.3, "density": 100},
    "gravity": [0, -10, 0],
    "ground": {"normal": [0, 1, 0], "offset": 0},
    "initial": {"velocity": [0.2, -1.0, 0.0]},
    "integrator": {"type": "backward_euler", "max_iterations": 6, "tolerance": 1e-10, "eigenvalue_filter": "clamp"},
    "time": {"dt": 0.01, "steps": 10}
  })";
  const std::string scene = (dir / "scene.json").string(), capture = (dir / "capture").string();
  const auto synth = runSoftfit("synth " + scene + " -o " + capture + " --resolution 16");
  ASSERT_EQ(synth.exitCode, 0) << synth.output;
  const auto r = runSoftfit("sweep " + scene + " --observations " + capture +
                            " --loss displacements --grid velocity_y=-20:-1:3 -q -o " + (dir / "out").string());
  EXPECT_EQ(r.exitCode, 3) << r.output;
  EXPECT_NE(r.output.find("2 of 3 points failed"), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(dir / "out" / "run_complete.txt"));
  const auto rows = readCsv(dir / "out" / "sweep.csv");
  ASSERT_EQ(rows.size(), 4u);
  EXPECT_EQ(rows[1][2], "");
  EXPECT_NE(rows[1][3].find("failed: "), std::string::npos);
  EXPECT_EQ(rows[3][3], "ok");
  EXPECT_EQ(std::stod(rows[3][2]), 0.0);  // the truth
  fs::remove_all(dir);
}

}  // namespace
