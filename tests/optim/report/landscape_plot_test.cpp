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

bool near(const RasterImage& image, const PlotPosition& at, Rgb c) {
  for (int dy = -1; dy <= 1; ++dy)
    for (int dx = -1; dx <= 1; ++dx) {
      const Rgb p = image.pixel(static_cast<int>(std::lround(at.x)) + dx, static_cast<int>(std::lround(at.y)) + dy);
      if (p.r == c.r && p.g == c.g && p.b == c.b) return true;
    }
  return false;
}

TEST(LandscapePlot, DrawsOptimizerPathsOverTheLandscape) {
  for (int dims : {1, 2}) {
    LandscapeData d = gridData(dims);
    LandscapePath path;
    path.label = "fit";
    for (int k = 0; k < 4; ++k) {
      VecX p(dims);
      p[0] = 3500.0 - 400.0 * k;
      if (dims == 2) p[1] = 0.35 - 0.02 * k;
      path.points.push_back(p);
      path.costs.push_back(std::pow(10.0, -k));
    }
    VecX outside(dims);  // beyond the sweep's range: clamped to the plot box
    outside[0] = 1e5;
    if (dims == 2) outside[1] = -1.0;
    path.points.push_back(outside);
    path.costs.push_back(1e-3);
    d.paths = {path};
    const RasterImage plain = renderLandscapePlot(gridData(dims));
    std::vector<std::vector<PlotPosition>> at;
    const RasterImage image = renderLandscapePlot(d, &at);
    EXPECT_EQ(image.width(), 900);
    EXPECT_EQ(image.height(), 640);
    ASSERT_EQ(at.size(), 1u);
    ASSERT_EQ(at[0].size(), 5u);
    const Rgb c = kLandscapePathColours[0];
    for (const PlotPosition& p : at[0]) EXPECT_TRUE(near(image, p, c)) << dims << "D at " << p.x << ", " << p.y;
    // Midway between two iterates: the line; and nothing of that colour without a path.
    const PlotPosition mid{0.5 * (at[0][0].x + at[0][1].x), 0.5 * (at[0][0].y + at[0][1].y)};
    EXPECT_TRUE(near(image, mid, c)) << dims;
    EXPECT_FALSE(near(plain, mid, c)) << dims;
    // Iterates run right to left (E falls); the outlier sits on the box's right edge.
    EXPECT_GT(at[0][0].x, at[0][3].x) << dims;
    EXPECT_NEAR(at[0][4].x, 900 - (dims == 2 ? 150 : 30), 1e-9) << dims;
    if (dims == 1) {
      EXPECT_LT(at[0][0].y, at[0][3].y);  // cost falls: lower on the plot
    } else {
      EXPECT_LT(at[0][0].y, at[0][3].y);  // nu falls: lower on the plot
      EXPECT_NEAR(at[0][4].y, 640 - 90, 1e-9);
    }
  }
  LandscapeData wrong = gridData(2);
  wrong.paths.push_back({"bad", {VecX::Zero(3)}, {1.0}});
  EXPECT_THROW(renderLandscapePlot(wrong), InputError);
  LandscapeData many = gridData(1);
  many.paths.assign(5, LandscapePath{"p", {VecX::Constant(1, 2000.0)}, {1.0}});
  EXPECT_THROW(renderLandscapePlot(many), InputError);
}

}  // namespace
}  // namespace softfit
