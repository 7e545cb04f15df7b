#include "observations/static_background.h"

#include <algorithm>
#include <array>
#include <cmath>

#include <Eigen/Geometry>

#include "forward/errors.h"

namespace softfit {

namespace {

class GeometryBuilder {
 public:
  // Quad a, b, c, d (in order around its boundary) as two triangles.
  void quad(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d) {
    const int i = static_cast<int>(points_.size());
    points_.insert(points_.end(), {a, b, c, d});
    triangles_.push_back({i, i + 1, i + 2});
    triangles_.push_back({i, i + 2, i + 3});
  }
  // Box standing on `base` (the centre of its bottom face), edges along e1, e2, n.
  void box(const Vec3& base, const Vec3& e1, const Vec3& e2, const Vec3& n, double half, double height) {
    std::array<Vec3, 8> c;
    for (int k = 0; k < 8; ++k)
      c[k] = base + ((k & 1) ? half : -half) * e1 + ((k & 2) ? half : -half) * e2 + ((k & 4) ? height : 0.0) * n;
    quad(c[0], c[1], c[3], c[2]);  // bottom
    quad(c[4], c[5], c[7], c[6]);  // top
    quad(c[0], c[1], c[5], c[4]);
    quad(c[2], c[3], c[7], c[6]);
    quad(c[0], c[2], c[6], c[4]);
    quad(c[1], c[3], c[7], c[5]);
  }
  StaticGeometry take() const {
    StaticGeometry g;
    g.positions.resize(3 * static_cast<Eigen::Index>(points_.size()));
    for (std::size_t i = 0; i < points_.size(); ++i) g.positions.segment<3>(3 * i) = points_[i];
    g.triangles.resize(static_cast<Eigen::Index>(triangles_.size()), 3);
    for (std::size_t t = 0; t < triangles_.size(); ++t)
      for (int k = 0; k < 3; ++k) g.triangles(t, k) = triangles_[t][k];
    return g;
  }

 private:
  std::vector<Vec3> points_;
  std::vector<std::array<int, 3>> triangles_;
};

// Of 24 evenly spaced azimuths, the first farthest (in angle) from every taken one.
double clearestAzimuth(const std::vector<double>& taken) {
  double best = 0.0, bestGap = -1.0;
  for (int k = 0; k < 24; ++k) {
    const double a = 2.0 * M_PI * k / 24.0;
    double gap = M_PI;
    for (const double t : taken) gap = std::min(gap, std::abs(std::remainder(a - t, 2.0 * M_PI)));
    if (gap > bestGap) {
      bestGap = gap;
      best = a;
    }
  }
  return best;
}

}  // namespace

StaticGeometry makeStaticBackground(const Vec3& bodyMin, const Vec3& bodyMax, const std::vector<Camera>& cameras,
                                    const BackgroundOptions& options) {
  if (!bodyMin.allFinite() || !bodyMax.allFinite() || (bodyMin.array() > bodyMax.array()).any())
    throw InputError("background: invalid body bounding box");
  const Vec3 normal = options.hasGround ? options.groundNormal : options.up;
  if (!(normal.norm() > 0.0) || !normal.allFinite() || !std::isfinite(options.groundOffset))
    throw InputError("background: the floor normal must be non-zero and finite");
  const Vec3 n = normal.normalized();
  const Vec3 c = 0.5 * (bodyMin + bodyMax);
  double r = 0.5 * (bodyMax - bodyMin).norm();
  if (r == 0.0) r = 1.0;

  // Floor level along n (n.x = level).
  double level = 0.0;
  if (options.hasGround) {
    level = -options.groundOffset / normal.norm();
  } else {
    level = n.dot(c) - r;  // the lowest body point is at least this high
    for (const Camera& cam : cameras) level = std::min(level, n.dot(cam.position));
    level -= 0.5 * r;
  }
  const Vec3 p0 = c - (n.dot(c) - level) * n;
  const Vec3 helper = std::abs(n.x()) < 0.9 ? Vec3(1, 0, 0) : Vec3(0, 0, 1);
  const Vec3 e1 = n.cross(helper).normalized();
  const Vec3 e2 = n.cross(e1);

  double reach = 0.0, wall = 2.0 * r, top = 3.0 * r;
  for (const Camera& cam : cameras) {
    reach = std::max(reach, (cam.position - c).norm());
    wall = std::max(wall, e1.dot(cam.position - p0) + 0.5 * r);
    top = std::max(top, n.dot(cam.position) - level + r);
  }
  const double extent = 3.0 * reach + 2.0 * r;

  GeometryBuilder g;
  g.quad(p0 - extent * e1 - extent * e2, p0 + wall * e1 - extent * e2, p0 + wall * e1 + extent * e2,
         p0 - extent * e1 + extent * e2);
  const Vec3 w = p0 + wall * e1;
  g.quad(w - extent * e2, w + extent * e2, w + extent * e2 + top * n, w - extent * e2 + top * n);
  const double s = 0.6 * r, distance = 1.4 * r + 0.75 * s;
  std::vector<double> taken;  // azimuths (about n, from e1) of the cameras, then of the boxes
  for (const Camera& cam : cameras) {
    const Vec3 d = cam.position - c;
    if (std::hypot(e1.dot(d), e2.dot(d)) > 0.5 * r) taken.push_back(std::atan2(e2.dot(d), e1.dot(d)));
  }
  for (const double height : {0.8 * s, 1.4 * s}) {
    const double azimuth = clearestAzimuth(taken);
    taken.push_back(azimuth);
    g.box(p0 + distance * (std::cos(azimuth) * e1 + std::sin(azimuth) * e2), e1, e2, n, 0.5 * s, height);
  }
  return g.take();
}

void appendStaticGeometry(const StaticGeometry& geometry, VecX& positions, TriangleMatrix& triangles) {
  const Eigen::Index nodes = positions.size() / 3, t0 = triangles.rows();
  VecX x(positions.size() + geometry.positions.size());
  x << positions, geometry.positions;
  positions.swap(x);
  triangles.conservativeResize(t0 + geometry.triangles.rows(), 3);
  triangles.bottomRows(geometry.triangles.rows()) = geometry.triangles.array() + static_cast<int>(nodes);
}

}  // namespace softfit
