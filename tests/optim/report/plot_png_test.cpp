// The report plots are drawn by cairo and written as valid PNGs of the expected size,
// with something drawn on them (not a blank page); the same input gives the same bytes.
#include <cairo.h>
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "forward/errors.h"
#include "forward/mesh/temp_directory.h"
#include "optim/report/convergence_plot.h"
#include "optim/report/landscape_plot.h"
#include "optim/report/raster_image.h"

namespace softfit {
namespace {

namespace fs = std::filesystem;

struct PngFacts {
  int width = 0, height = 0;
  long long inked = 0;  // pixels that are not white
};

// Reads the PNG back with cairo; width 0 when it is not a valid PNG.
PngFacts readPng(const std::string& path) {
  PngFacts facts;
  cairo_surface_t* s = cairo_image_surface_create_from_png(path.c_str());
  if (cairo_surface_status(s) == CAIRO_STATUS_SUCCESS) {
    facts.width = cairo_image_surface_get_width(s);
    facts.height = cairo_image_surface_get_height(s);
    const unsigned char* data = cairo_image_surface_get_data(s);
    const int stride = cairo_image_surface_get_stride(s);
    for (int y = 0; y < facts.height; ++y)
      for (int x = 0; x < facts.width; ++x)
        if ((reinterpret_cast<const std::uint32_t*>(data + y * stride)[x] & 0xffffff) != 0xffffff) ++facts.inked;
  }
  cairo_surface_destroy(s);
  return facts;
}

std::string bytesOf(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

class PlotPng : public ::testing::Test {
 protected:
  TempDirectory temp{"softfit-plot-png-"};
  const fs::path dir{temp.path()};
};

TEST_F(PlotPng, ConvergencePlot) {
  std::vector<IterationRecord> history;
  for (int k = 0; k <= 12; ++k) {
    IterationRecord r;
    r.iteration = k;
    r.cost = std::pow(10.0, -k);
    r.gradientNorm = std::pow(10.0, -0.5 * k);
    history.push_back(r);
  }
  writeConvergencePlot((dir / "a.png").string(), history);
  writeConvergencePlot((dir / "b.png").string(), history);
  const PngFacts f = readPng((dir / "a.png").string());
  EXPECT_EQ(f.width, 900);
  EXPECT_EQ(f.height, 560);
  EXPECT_GT(f.inked, 5000);  // axes, grid, two curves, labels
  EXPECT_EQ(bytesOf(dir / "a.png"), bytesOf(dir / "b.png"));
}

TEST_F(PlotPng, LandscapePlots) {
  for (int dims : {1, 2}) {
    LandscapeData d;
    d.names = dims == 1 ? std::vector<std::string>{"E"} : std::vector<std::string>{"E", "nu"};
    for (int i = 0; i < 5; ++i)
      for (int j = 0; j < (dims == 2 ? 5 : 1); ++j) {
        VecX p(dims);
        p[0] = 2000.0 + 500.0 * i;
        if (dims == 2) p[1] = 0.2 + 0.05 * j;
        d.points.push_back(p);
        d.costs.push_back(1.0 + std::pow(p[0] - 3000.0, 2) + (dims == 2 ? 1e4 * std::pow(p[1] - 0.3, 2) : 0.0));
        d.ok.push_back(true);
      }
    d.gridCounts = dims == 2 ? std::vector<int>{5, 5} : std::vector<int>{5};
    d.truth = {{"E", 3000.0}, {"nu", 0.3}};
    const fs::path png = dir / ("landscape" + std::to_string(dims) + ".png");
    writeLandscapePlot(png.string(), d);
    const PngFacts f = readPng(png.string());
    EXPECT_EQ(f.width, 900) << dims;
    EXPECT_EQ(f.height, 640) << dims;
    EXPECT_GT(f.inked, dims == 2 ? 100000 : 5000) << dims;  // the heat map fills the plot box
  }
}

TEST_F(PlotPng, AnUnwritablePathNamesIt) {
  RasterImage image(10, 10, {255, 255, 255});
  try {
    image.savePng((dir / "missing" / "x.png").string());
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("missing/x.png"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace softfit
