#include "optim/report/fit_report.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "forward/errors.h"
#include "optim/report/convergence_plot.h"

namespace softfit {
namespace {

TEST(FitReport, WritesCsvJsonAndPng) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / "softfit_fit_report_test";
  std::filesystem::create_directories(dir);
  std::vector<IterationRecord> history;
  for (int k = 0; k < 12; ++k) {
    IterationRecord r;
    r.iteration = k;
    r.cost = std::pow(10.0, -k);
    r.gradientNorm = std::pow(10.0, 1 - 0.8 * k);
    r.point = VecX::Constant(1, std::log(2000.0 + k));
    history.push_back(r);
  }
  const TransformSet transforms = defaultTransforms(parseParameterList("E"));
  writeFitHistoryCsv((dir / "history.csv").string(), {"E"}, transforms, history);
  std::ifstream csv(dir / "history.csv");
  std::string header, first;
  std::getline(csv, header);
  std::getline(csv, first);
  EXPECT_EQ(header, "iteration,evaluations,seconds,cost,gradient_norm,E");
  EXPECT_NEAR(std::stod(first.substr(first.rfind(',') + 1)), 2000.0, 1e-9) << first;  // physical, not log, values

  writeConvergencePlot((dir / "convergence.png").string(), history);
  std::ifstream png(dir / "convergence.png", std::ios::binary);
  char magic[8];
  png.read(magic, 8);
  EXPECT_EQ(std::string(magic + 1, 3), "PNG");
  EXPECT_GT(std::filesystem::file_size(dir / "convergence.png"), 2000u);

  FitSummary summary;
  summary.names = {"E"};
  summary.start = VecX::Constant(1, 2500.0);
  summary.result = VecX::Constant(1, 2001.0);
  summary.truth["E"] = 2000.0;
  writeFitResultJson((dir / "result.json").string(), summary);
  EXPECT_NE(formatFitSummary(summary).find("+0.050%"), std::string::npos) << formatFitSummary(summary);
  EXPECT_THROW(writeFitResultJson((dir / "missing" / "x.json").string(), summary), InputError);
  if (const char* keep = std::getenv("SOFTFIT_KEEP_TEST_OUTPUT")) std::filesystem::copy_file(dir / "convergence.png", keep, std::filesystem::copy_options::overwrite_existing);
  std::filesystem::remove_all(dir);
}

TEST(FitReport, ReadsTheHistoryBackAsAPath) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / "softfit_fit_history_read_test";
  std::filesystem::create_directories(dir);
  std::vector<IterationRecord> history;
  for (int k = 0; k < 3; ++k) {
    IterationRecord r;
    r.iteration = k;
    r.cost = 1.0 / (1 + k);
    r.point = (VecX(2) << std::log(2500.0 - 200.0 * k), 0.35 - 0.02 * k).finished();
    history.push_back(r);
  }
  TransformSet transforms = defaultTransforms(parseParameterList("E,nu"));
  transforms.transforms[1] = ParameterTransform{};  // nu as is
  const std::string csv = (dir / "history.csv").string();
  writeFitHistoryCsv(csv, {"E", "nu"}, transforms, history);
  // Columns by name, in the order asked for, physical values.
  const FitHistoryTrack track = readFitHistoryCsv(csv, {"nu", "E"});
  ASSERT_EQ(track.points.size(), 3u);
  EXPECT_NEAR(track.points[2][0], 0.31, 1e-12);
  EXPECT_NEAR(track.points[2][1], 2100.0, 1e-9);
  EXPECT_EQ(track.costs[1], 0.5);
  const auto expectError = [&](const std::string& file, const std::vector<std::string>& names, const std::string& what) {
    try {
      readFitHistoryCsv(file, names);
      ADD_FAILURE() << "no error for " << what;
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find(file), std::string::npos) << e.what();
    }
  };
  expectError(csv, {"alpha1"}, "no column \"alpha1\"");
  expectError((dir / "missing.csv").string(), {"E"}, "cannot open");
  std::ofstream((dir / "bad.csv").string()) << "iteration,cost,E\n0,1,2000\n1,x,2000\n";
  expectError((dir / "bad.csv").string(), {"E"}, "line 3, column \"cost\"");
  std::ofstream((dir / "short.csv").string()) << "iteration,cost,E\n0,1\n";
  expectError((dir / "short.csv").string(), {"E"}, "line 2 has 2 fields");
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace softfit
