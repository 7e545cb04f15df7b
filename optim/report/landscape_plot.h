#pragma once
// The cost landscape of a parameter sweep as a PNG (softfit sweep): for two parameters
// a heat map of log10(cost) (grid cells, or dots for scattered points), for one a line
// plot of log10(cost); the lowest cost is marked with a white square, the truth (when
// known) with a red cross (heat map) or a red vertical line (line plot). Points whose
// evaluation failed are grey. Optimizer paths (a fit's iterates, e.g. from its
// history.csv) are drawn over it as numbered polylines, one colour each, clamped to
// the plot box (heat map: the iterates' parameters; line plot: parameter and cost).
#include <map>
#include <string>
#include <vector>

#include "forward/types.h"
#include "optim/report/raster_image.h"

namespace softfit {


struct LandscapePath {
  std::string label;          // legend text
  std::vector<VecX> points;   // physical values of the plot's parameters, in order
  std::vector<double> costs;  // per point (used by the line plot)
};

struct LandscapeData {
  std::vector<std::string> names;  // 1 or 2 parameters
  std::vector<VecX> points;        // physical values
  std::vector<double> costs;       // per point
  std::vector<bool> ok;            // false: the evaluation failed (cost unused)
  // Grid sweeps: points per axis (first axis slowest, as softfit sweep orders them);
  // empty for scattered points (Latin hypercube).
  std::vector<int> gridCounts;
  std::map<std::string, double> truth;  // known true values; may be empty
  // The axes' extent per parameter (e.g. the sampled box of a Latin hypercube); empty:
  // the points' own extent.
  std::vector<double> low, high;
  std::vector<LandscapePath> paths;  // drawn over the landscape; at most 4
};

// Pixel position of a parameter point on the plot (heat map: x = first parameter,
// y = second; line plot: x = the parameter, y = log10(cost)), for tests of what is drawn.
struct PlotPosition {
  double x = 0.0, y = 0.0;
};

// The path colours, in order.
extern const Rgb kLandscapePathColours[4];

// The plot as an image (900 x 640). `positionOf`, when given, receives the pixel
// position of each path point (outer: path, inner: point) after clamping. Throws
// InputError for other than 1 or 2 parameters, or more than 4 paths.
RasterImage renderLandscapePlot(const LandscapeData& data, std::vector<std::vector<PlotPosition>>* positionOf = nullptr);

// renderLandscapePlot, saved as PNG. Throws InputError as it does, or naming `path`
// when it cannot be written.
void writeLandscapePlot(const std::string& path, const LandscapeData& data);

}  // namespace softfit
