#include "optim/report/landscape_plot.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>

#include "forward/errors.h"

namespace softfit {
namespace {

namespace fs = std::filesystem;

LandscapeData gridData(int dims) {
  LandscapeData d;
  for (int k = 0; k < dims; ++k) d.names.push_back(k == 0 ? "E" : "nu");
  const int n = 4;
  const int total = dims == 1 ? n : n * n;
  for (int i = 0; i < total; ++i) {
    VecX p(dims);
    p[0] = 1000.0 * (1 + (dims == 1 ? i : i / n));
    if (dims == 2) p[1] = 0.2 + 0.05 * (i % n);
    d.points.push_back(p);
    d.costs.push_back(std::pow(10.0, -i % 7));
    d.ok.push_back(i != 2);  // one failed point
  }
  for (int k = 0; k < dims; ++k) d.gridCounts.push_back(n);
  d.truth = {{"E", 2500.0}, {"nu", 0.3}};
  return d;
}

TEST(LandscapePlot, WritesHeatMapsLinePlotsAndScatteredPoints) {
  const fs::path dir = fs::temp_directory_path() / ("softfit_landscape_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  for (int dims : {1, 2}) {
    const fs::path png = dir / ("plot" + std::to_string(dims) + ".png");
    writeLandscapePlot(png.string(), gridData(dims));
    EXPECT_GT(fs::file_size(png), 1000u);
  }
  LandscapeData scattered = gridData(2);
  scattered.gridCounts.clear();
  scattered.low = {0.0, 0.0};
  scattered.high = {5000.0, 0.5};
  writeLandscapePlot((dir / "scattered.png").string(), scattered);
  EXPECT_GT(fs::file_size(dir / "scattered.png"), 1000u);
  LandscapeData allFailed = gridData(1);
  for (size_t i = 0; i < allFailed.ok.size(); ++i) allFailed.ok[i] = false;
  EXPECT_NO_THROW(writeLandscapePlot((dir / "failed.png").string(), allFailed));
  LandscapeData three = gridData(2);
  three.names.push_back("alpha1");
  EXPECT_THROW(writeLandscapePlot((dir / "three.png").string(), three), InputError);
  EXPECT_THROW(writeLandscapePlot((dir / "missing" / "x.png").string(), gridData(1)), InputError);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace softfit
