#include "optim/report/landscape_plot.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>

#include "adjoint/parameter_descriptor.h"
#include "forward/errors.h"
#include "optim/report/raster_image.h"

namespace softfit {

namespace {

std::string formatTick(double v) {
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), "%.4g", v);
  return buffer;
}

// A perceptually ordered colour map (viridis' end and middle colours, interpolated).
Rgb colour(double t) {
  static const Rgb stops[] = {{68, 1, 84}, {59, 82, 139}, {33, 145, 140}, {94, 201, 98}, {253, 231, 37}};
  t = std::clamp(t, 0.0, 1.0) * 4.0;
  const int k = std::min(3, static_cast<int>(t));
  const double f = t - k;
  const auto mix = [&](std::uint8_t a, std::uint8_t b) { return static_cast<std::uint8_t>(std::lround(a + f * (b - a))); };
  return {mix(stops[k].r, stops[k + 1].r), mix(stops[k].g, stops[k + 1].g), mix(stops[k].b, stops[k + 1].b)};
}

double logCost(double c) { return std::log10(std::max(c, 1e-300)); }

// "E (Pa)", "nu".
std::string axisLabel(const std::string& name) {
  const std::string unit = parameterUnit(name);
  return unit.empty() ? name : name + " (" + unit + ")";
}

struct Range {
  double lo = 0.0, hi = 1.0;
  double at(double v) const { return hi > lo ? (v - lo) / (hi - lo) : 0.5; }
};

Range axisRange(const LandscapeData& d, int axis) {
  if (d.low.size() == d.names.size() && d.high.size() == d.names.size() && d.high[axis] > d.low[axis])
    return {d.low[axis], d.high[axis]};
  Range r{std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity()};
  for (const VecX& p : d.points) {
    r.lo = std::min(r.lo, p[axis]);
    r.hi = std::max(r.hi, p[axis]);
  }
  if (!(r.hi > r.lo)) {
    const double pad = r.lo == 0.0 ? 1.0 : 0.5 * std::abs(r.lo);
    r.lo -= pad;
    r.hi += pad;
  }
  return r;
}

const Rgb kBlack{0, 0, 0}, kGrey{170, 170, 170}, kLight{220, 220, 220}, kWhite{255, 255, 255}, kRed{220, 30, 30},
    kBlue{31, 90, 200};

}  // namespace

const Rgb kLandscapePathColours[4] = {{255, 0, 255}, {255, 255, 255}, {255, 140, 0}, {0, 200, 255}};

RasterImage renderLandscapePlot(const LandscapeData& d, std::vector<std::vector<PlotPosition>>* positionOf) {
  const int dims = static_cast<int>(d.names.size());
  if (dims != 1 && dims != 2) throw InputError("a landscape plot needs 1 or 2 parameters");
  if (d.paths.size() > 4) throw InputError("a landscape plot shows at most 4 optimizer paths");
  for (const LandscapePath& p : d.paths)
    for (const VecX& q : p.points)
      if (q.size() != dims) throw InputError("optimizer path \"" + p.label + "\": points need one value per plot parameter");
  const int width = 900, height = 640, left = 120, right = dims == 2 ? 150 : 30, top = 60, bottom = 90;
  const int plotW = width - left - right, plotH = height - top - bottom;
  RasterImage image(width, height, kWhite);
  const size_t n = d.points.size();
  Range cost{std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity()};
  int best = -1;
  for (size_t i = 0; i < n; ++i) {
    if (!d.ok[i]) continue;
    cost.lo = std::min(cost.lo, logCost(d.costs[i]));
    cost.hi = std::max(cost.hi, logCost(d.costs[i]));
    if (best < 0 || d.costs[i] < d.costs[best]) best = static_cast<int>(i);
  }
  if (best < 0) cost = {0.0, 1.0};
  if (!(cost.hi > cost.lo)) cost = {cost.lo - 0.5, cost.lo + 0.5};
  const Range x = axisRange(d, 0);
  const auto px = [&](double v) { return left + plotW * x.at(v); };
  const auto tickX = [&](double v) {
    image.line(px(v), height - bottom, px(v), height - bottom + 6, kBlack);
    const std::string label = formatTick(v);
    image.text(static_cast<int>(px(v)) - RasterImage::textWidth(label) / 2, height - bottom + 12, label, kBlack);
  };
  const auto tickY = [&](double py, double v) {
    const std::string label = formatTick(v);
    image.line(left - 6, py, left, py, kBlack);
    image.text(left - 10 - RasterImage::textWidth(label), static_cast<int>(py) - 7, label, kBlack);
  };
  const auto markBest = [&](double cx, double cy) {
    const int r = 7;
    image.rectangle(static_cast<int>(cx) - r, static_cast<int>(cy) - r, static_cast<int>(cx) + r,
                    static_cast<int>(cy) + r, kWhite);
    image.rectangle(static_cast<int>(cx) - r - 1, static_cast<int>(cy) - r - 1, static_cast<int>(cx) + r + 1,
                    static_cast<int>(cy) + r + 1, kBlack);
  };
  std::function<PlotPosition(const VecX&, double)> place;  // a path point's pixel position
  const auto truthOf = [&](int axis, double& value) {
    const auto it = d.truth.find(d.names[axis]);
    if (it == d.truth.end()) return false;
    value = it->second;
    return true;
  };

  if (dims == 2) {
    image.text(left, 18, "cost landscape: log10 cost over " + d.names[0] + " and " + d.names[1], kBlack, 2);
    const Range y = axisRange(d, 1);
    const auto py = [&](double v) { return top + plotH * (1.0 - y.at(v)); };
    place = [px, y, top, plotH](const VecX& p, double) {
      return PlotPosition{px(p[0]), top + plotH * (1.0 - y.at(p[1]))};
    };
    const bool grid = d.gridCounts.size() == 2 && static_cast<size_t>(d.gridCounts[0]) * d.gridCounts[1] == n;
    for (size_t i = 0; i < n; ++i) {
      const Rgb c = d.ok[i] ? colour(cost.at(logCost(d.costs[i]))) : kGrey;
      const double cx = px(d.points[i][0]), cy = py(d.points[i][1]);
      if (grid) {  // a cell around each grid point, clipped to the plot
        const double hx = 0.5 * plotW / std::max(1, d.gridCounts[0] - 1), hy = 0.5 * plotH / std::max(1, d.gridCounts[1] - 1);
        const int x0 = std::max(left, static_cast<int>(std::floor(cx - hx))),
                  x1 = std::min(left + plotW, static_cast<int>(std::ceil(cx + hx)));
        const int y0 = std::max(top, static_cast<int>(std::floor(cy - hy))),
                  y1 = std::min(top + plotH, static_cast<int>(std::ceil(cy + hy)));
        image.fill(x0, y0, x1, y1, c);
      } else {
        image.fill(static_cast<int>(cx) - 4, static_cast<int>(cy) - 4, static_cast<int>(cx) + 4,
                   static_cast<int>(cy) + 4, c);
      }
    }
    image.rectangle(left, top, left + plotW, top + plotH, kBlack);
    for (double t : {0.0, 0.5, 1.0}) {
      tickX(x.lo + t * (x.hi - x.lo));
      const double v = y.lo + t * (y.hi - y.lo);
      tickY(py(v), v);
    }
    image.text(left + plotW / 2 - RasterImage::textWidth(axisLabel(d.names[0])) / 2, height - bottom + 36,
               axisLabel(d.names[0]), kBlack);
    image.verticalText(8, top + plotH / 2, axisLabel(d.names[1]), kBlack);
    if (best >= 0) markBest(px(d.points[best][0]), py(d.points[best][1]));
    double tx = 0.0, ty = 0.0;
    if (truthOf(0, tx) && truthOf(1, ty)) {
      const double cx = px(tx), cy = py(ty);
      image.line(cx - 10, cy - 10, cx + 10, cy + 10, kRed, 3);
      image.line(cx - 10, cy + 10, cx + 10, cy - 10, kRed, 3);
    }
    // Colour bar.
    const int barX = left + plotW + 30, barW = 24;
    for (int k = 0; k <= plotH; ++k)
      image.fill(barX, top + plotH - k, barX + barW, top + plotH - k, colour(static_cast<double>(k) / plotH));
    image.rectangle(barX, top, barX + barW, top + plotH, kBlack);
    for (double t : {0.0, 0.5, 1.0}) {
      const std::string label = formatTick(cost.lo + t * (cost.hi - cost.lo));
      image.text(barX + barW + 6, static_cast<int>(top + plotH * (1.0 - t)) - 7, label, kBlack);
    }
    image.text(barX - 10, top - 24, "log10 cost", kBlack);
  } else {
    image.text(left, 18, "cost landscape: log10 cost over " + d.names[0], kBlack, 2);
    const auto py = [&](double v) { return top + plotH * (1.0 - cost.at(v)); };
    place = [&, py](const VecX& p, double c) { return PlotPosition{px(p[0]), py(logCost(c))}; };
    for (double t : {0.0, 0.25, 0.5, 0.75, 1.0}) {
      const double v = cost.lo + t * (cost.hi - cost.lo);
      image.line(left, py(v), left + plotW, py(v), kLight);
      tickY(py(v), v);
      tickX(x.lo + t * (x.hi - x.lo));
    }
    image.rectangle(left, top, left + plotW, top + plotH, kBlack);
    image.text(left + plotW / 2 - RasterImage::textWidth(axisLabel(d.names[0])) / 2, height - bottom + 36,
               axisLabel(d.names[0]), kBlack);
    image.verticalText(8, top + plotH / 2, "log10 cost", kBlack);
    std::vector<size_t> order(n);
    for (size_t i = 0; i < n; ++i) order[i] = i;
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return d.points[a][0] < d.points[b][0]; });
    double tx = 0.0;
    if (truthOf(0, tx) && tx >= x.lo && tx <= x.hi) image.line(px(tx), top, px(tx), top + plotH, kRed, 2);
    for (size_t k = 1; k < n; ++k) {
      const size_t a = order[k - 1], b = order[k];
      if (d.ok[a] && d.ok[b])
        image.line(px(d.points[a][0]), py(logCost(d.costs[a])), px(d.points[b][0]), py(logCost(d.costs[b])), kBlue, 3);
    }
    for (size_t i = 0; i < n; ++i) {
      const double cx = px(d.points[i][0]);
      if (d.ok[i])
        image.fill(static_cast<int>(cx) - 3, static_cast<int>(py(logCost(d.costs[i]))) - 3, static_cast<int>(cx) + 3,
                   static_cast<int>(py(logCost(d.costs[i]))) + 3, kBlue);
      else
        image.fill(static_cast<int>(cx) - 3, top + plotH - 8, static_cast<int>(cx) + 3, top + plotH - 2, kGrey);
    }
    if (best >= 0) markBest(px(d.points[best][0]), py(logCost(d.costs[best])));
  }
  // Optimizer paths: a polyline through the iterates, a dot at each (black-edged), the
  // start a larger square; legend top right inside the plot.
  if (positionOf) positionOf->assign(d.paths.size(), {});
  for (size_t k = 0; k < d.paths.size(); ++k) {
    const LandscapePath& path = d.paths[k];
    const Rgb c = kLandscapePathColours[k];
    std::vector<PlotPosition> at;
    for (size_t i = 0; i < path.points.size(); ++i) {
      PlotPosition q = place(path.points[i], i < path.costs.size() ? path.costs[i] : 1.0);
      q.x = std::clamp(q.x, static_cast<double>(left), static_cast<double>(left + plotW));
      q.y = std::clamp(q.y, static_cast<double>(top), static_cast<double>(top + plotH));
      at.push_back(q);
    }
    for (size_t i = 1; i < at.size(); ++i) image.line(at[i - 1].x, at[i - 1].y, at[i].x, at[i].y, c, 2);
    for (size_t i = 0; i < at.size(); ++i) {
      const int r = i == 0 ? 6 : 3, cx = static_cast<int>(std::lround(at[i].x)), cy = static_cast<int>(std::lround(at[i].y));
      image.fill(cx - r - 1, cy - r - 1, cx + r + 1, cy + r + 1, kBlack);
      image.fill(cx - r, cy - r, cx + r, cy + r, c);
    }
    const int lw = RasterImage::textWidth(path.label) + 34, lx = left + plotW - lw - 6, ly = top + 6 + 24 * static_cast<int>(k);
    image.fill(lx, ly, lx + lw, ly + 20, kWhite);
    image.rectangle(lx, ly, lx + lw, ly + 20, kBlack);
    image.fill(lx + 5, ly + 5, lx + 17, ly + 15, kBlack);
    image.fill(lx + 6, ly + 6, lx + 16, ly + 14, c);
    image.text(lx + 26, ly + 3, path.label, kBlack);
    if (positionOf) (*positionOf)[k] = at;
  }
  // Legend.
  const int ly = height - 14;
  image.rectangle(left, ly - 6, left + 12, ly + 6, kBlack);
  image.text(left + 20, ly - 7, "lowest cost", kBlack);
  image.line(left + 200, ly - 6, left + 212, ly + 6, kRed, 3);
  if (dims == 2) image.line(left + 200, ly + 6, left + 212, ly - 6, kRed, 3);
  image.text(left + 220, ly - 7, "truth", kBlack);
  image.fill(left + 320, ly - 6, left + 332, ly + 6, kGrey);
  image.text(left + 340, ly - 7, "failed", kBlack);
  return image;
}

void writeLandscapePlot(const std::string& path, const LandscapeData& data) {
  RasterImage image(1, 1, kWhite);
  try {
    image = renderLandscapePlot(data);
  } catch (const InputError& e) {
    throw InputError(path + ": " + e.what());
  }
  image.savePng(path);
}

}  // namespace softfit
