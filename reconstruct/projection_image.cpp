#include "reconstruct/projection_image.h"

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "optim/report/raster_image.h"

namespace softfit {

namespace {

constexpr int kPanel = 360, kMargin = 20, kTitle = 24, kScaleBar = 26, kLegend = 34;
const Rgb kBoth{150, 150, 150}, kMine{220, 40, 40}, kTheirs{40, 80, 220}, kBlack{0, 0, 0};

// A round length (1, 2 or 5 x 10^k m) near a quarter of `extent`, and its label.
double scaleBarLength(double extent, std::string& label) {
  const double target = 0.25 * extent, decade = std::pow(10.0, std::floor(std::log10(target)));
  double length = decade;
  for (double m : {2.0, 5.0, 10.0})
    if (m * decade <= target) length = m * decade;
  char text[32];
  if (length >= 1.0) std::snprintf(text, sizeof text, "%g m", length);
  else if (length >= 0.01) std::snprintf(text, sizeof text, "%g cm", length * 100.0);
  else std::snprintf(text, sizeof text, "%g mm", length * 1000.0);
  label = text;
  return length;
}

// Marks every pixel centre of the panel covered by a projected triangle of `surface`.
void rasterize(const TriangleSurface& surface, const Vec3& u, const Vec3& v, const Eigen::Vector2d& lo, double scale,
               std::vector<bool>& mask) {
  auto project = [&](int i) {
    const Vec3 p = surface.vertices.row(i).transpose();
    return Eigen::Vector2d((u.dot(p) - lo[0]) * scale, kPanel - 1 - (v.dot(p) - lo[1]) * scale);
  };
  for (int t = 0; t < surface.triangleCount(); ++t) {
    const Eigen::Vector2d a = project(surface.triangles(t, 0)), b = project(surface.triangles(t, 1)),
                          c = project(surface.triangles(t, 2));
    const double area = (b - a).x() * (c - a).y() - (b - a).y() * (c - a).x();
    if (area == 0.0) continue;
    const int x0 = std::max(0, static_cast<int>(std::floor(std::min({a.x(), b.x(), c.x()}))));
    const int x1 = std::min(kPanel - 1, static_cast<int>(std::ceil(std::max({a.x(), b.x(), c.x()}))));
    const int y0 = std::max(0, static_cast<int>(std::floor(std::min({a.y(), b.y(), c.y()}))));
    const int y1 = std::min(kPanel - 1, static_cast<int>(std::ceil(std::max({a.y(), b.y(), c.y()}))));
    for (int y = y0; y <= y1; ++y)
      for (int x = x0; x <= x1; ++x) {
        const Eigen::Vector2d p(x, y);
        const double w0 = ((b - p).x() * (c - p).y() - (b - p).y() * (c - p).x()) / area;
        const double w1 = ((c - p).x() * (a - p).y() - (c - p).y() * (a - p).x()) / area;
        if (w0 >= 0.0 && w1 >= 0.0 && w0 + w1 <= 1.0) mask[y * kPanel + x] = true;
      }
  }
}

}  // namespace

void writeProjectionImage(const std::string& path, const TriangleSurface& reconstructed, const TriangleSurface& truth,
                          const Vec3& groundNormal) {
  const Vec3 n = groundNormal.normalized(), a = n.unitOrthogonal(), b = n.cross(a);
  const Vec3 axes[2][2] = {{a, b}, {a, n}};  // top, side
  RasterImage image(2 * kPanel + 3 * kMargin, kPanel + kMargin + kTitle + kScaleBar + kLegend, Rgb{255, 255, 255});
  for (int panel = 0; panel < 2; ++panel) {
    const Vec3& u = axes[panel][0];
    const Vec3& v = axes[panel][1];
    Eigen::Vector2d lo(INFINITY, INFINITY), hi(-INFINITY, -INFINITY);
    for (const TriangleSurface* s : {&reconstructed, &truth})
      for (int i = 0; i < s->vertexCount(); ++i) {
        const Vec3 p = s->vertices.row(i).transpose();
        lo = lo.cwiseMin(Eigen::Vector2d(u.dot(p), v.dot(p)));
        hi = hi.cwiseMax(Eigen::Vector2d(u.dot(p), v.dot(p)));
      }
    const double extent = std::max((hi - lo).maxCoeff(), 1e-12);
    const double scale = 0.9 * (kPanel - 1) / extent;
    lo -= Eigen::Vector2d::Constant(0.05 * extent);
    std::vector<bool> mine(kPanel * kPanel, false), theirs(kPanel * kPanel, false);
    rasterize(reconstructed, u, v, lo, scale, mine);
    rasterize(truth, u, v, lo, scale, theirs);
    const int ox = kMargin + panel * (kPanel + kMargin), oy = kTitle;
    for (int y = 0; y < kPanel; ++y)
      for (int x = 0; x < kPanel; ++x) {
        const bool m = mine[y * kPanel + x], t = theirs[y * kPanel + x];
        if (m || t) image.setPixel(ox + x, oy + y, m && t ? kBoth : m ? kMine : kTheirs);
      }
    image.rectangle(ox, oy, ox + kPanel - 1, oy + kPanel - 1, kBlack);
    image.text(ox, 4, panel == 0 ? "top view" : "side view (ground below)", kBlack);
    // Ticks every scale-bar length along the panel's edges, and the bar with its length.
    std::string label;
    const double length = scaleBarLength(extent, label), step = length * scale;
    for (double t = 0.0; t <= kPanel - 1; t += step) {
      image.line(ox + t, oy + kPanel - 1, ox + t, oy + kPanel - 7, kBlack);
      image.line(ox, oy + kPanel - 1 - t, ox + 6, oy + kPanel - 1 - t, kBlack);
    }
    const int barY = oy + kPanel + 12;  // under the panel
    image.line(ox + 14, barY, ox + 14 + step, barY, kBlack, 2);
    image.line(ox + 14, barY - 4, ox + 14, barY + 4, kBlack);
    image.line(ox + 14 + step, barY - 4, ox + 14 + step, barY + 4, kBlack);
    image.text(ox + 22 + static_cast<int>(step), barY - 7, label, kBlack);
  }
  // Legend.
  const int ly = kTitle + kPanel + kScaleBar + kMargin / 2;
  int lx = kMargin;
  for (const auto& [colour, name] :
       {std::pair{kBoth, "reconstruction and truth"}, std::pair{kMine, "reconstruction only"},
        std::pair{kTheirs, "truth only"}}) {
    if (truth.vertexCount() == 0 && colour.r != kMine.r) continue;
    image.fill(lx, ly, lx + 14, ly + 14, colour);
    image.text(lx + 20, ly + 1, truth.vertexCount() == 0 ? "reconstruction" : name, kBlack);
    lx += 40 + RasterImage::textWidth(name);
  }
  image.savePng(path);
}

}  // namespace softfit
