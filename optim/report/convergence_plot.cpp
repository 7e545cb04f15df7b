#include "optim/report/convergence_plot.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "optim/report/raster_image.h"

namespace softfit {

namespace {

std::string formatTick(double v) {
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), "%g", v);
  return buffer;
}

}  // namespace

void writeConvergencePlot(const std::string& path, const std::vector<IterationRecord>& history) {
  const int width = 900, height = 560, left = 110, right = 30, top = 60, bottom = 80;
  RasterImage image(width, height, {255, 255, 255});
  const Rgb black{0, 0, 0}, grey{220, 220, 220}, blue{31, 90, 200}, red{200, 40, 40};
  image.text(left, 18, "fit convergence: log10 cost and log10 |grad|", black, 2);

  std::vector<double> costs, grads;
  for (const auto& r : history) {
    costs.push_back(std::log10(std::max(r.cost, 1e-300)));
    grads.push_back(std::log10(std::max(r.gradientNorm, 1e-300)));
  }
  double lo = 0.0, hi = 1.0;
  if (!history.empty()) {
    lo = std::min(*std::min_element(costs.begin(), costs.end()), *std::min_element(grads.begin(), grads.end()));
    hi = std::max(*std::max_element(costs.begin(), costs.end()), *std::max_element(grads.begin(), grads.end()));
  }
  lo = std::floor(lo);
  hi = std::ceil(hi);
  if (hi <= lo) hi = lo + 1.0;
  const int lastIteration = history.empty() ? 1 : std::max(1, history.back().iteration);
  const double plotW = width - left - right, plotH = height - top - bottom;
  auto px = [&](double it) { return left + plotW * it / lastIteration; };
  auto py = [&](double v) { return top + plotH * (hi - v) / (hi - lo); };

  // Grid, axes and tick labels.
  const int yStep = std::max(1, static_cast<int>(std::ceil((hi - lo) / 10.0)));
  for (double v = lo; v <= hi + 1e-9; v += yStep) {
    image.line(left, py(v), width - right, py(v), grey);
    const std::string label = formatTick(v);
    image.text(left - 10 - RasterImage::textWidth(label), static_cast<int>(py(v)) - 7, label, black);
  }
  const int xStep = std::max(1, lastIteration / 10);
  for (int it = 0; it <= lastIteration; it += xStep) {
    image.line(px(it), top, px(it), height - bottom, grey);
    const std::string label = std::to_string(it);
    image.text(static_cast<int>(px(it)) - RasterImage::textWidth(label) / 2, height - bottom + 10, label, black);
  }
  image.rectangle(left, top, width - right, height - bottom, black);
  image.text(left + static_cast<int>(plotW) / 2 - RasterImage::textWidth("iteration") / 2, height - 34, "iteration",
             black);
  image.verticalText(16, top + static_cast<int>(plotH) / 2, "log10 (cost, |gradient| in optimizer coordinates)", black);

  for (size_t k = 1; k < history.size(); ++k) {
    image.line(px(history[k - 1].iteration), py(costs[k - 1]), px(history[k].iteration), py(costs[k]), blue, 3);
    image.line(px(history[k - 1].iteration), py(grads[k - 1]), px(history[k].iteration), py(grads[k]), red, 3);
  }
  if (history.size() == 1) {
    image.fill(static_cast<int>(px(0)) - 3, static_cast<int>(py(costs[0])) - 3, static_cast<int>(px(0)) + 3,
               static_cast<int>(py(costs[0])) + 3, blue);
  }
  // Legend.
  image.fill(width - right - 262, top + 8, width - right - 10, top + 54, {255, 255, 255});
  image.rectangle(width - right - 262, top + 8, width - right - 10, top + 54, grey);
  image.line(width - right - 250, top + 18, width - right - 226, top + 18, blue, 3);
  image.text(width - right - 216, top + 12, "cost", black);
  image.line(width - right - 250, top + 42, width - right - 226, top + 42, red, 3);
  image.text(width - right - 216, top + 36, "|gradient|", black);
  image.savePng(path);
}

}  // namespace softfit
