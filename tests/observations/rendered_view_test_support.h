#pragma once
// Helpers shared by the tests of the costs that render the surface through the capture's
// cameras (rendered-mixture and per-pixel costs): a ring of cameras, a noisy rendered
// view, a unit sphere, an embedding that is not the identity, a one-frame capture through
// it, and the best scale of a sphere by bisection on a cost's radial derivative.
#include <cstdint>
#include <functional>
#include <vector>

#include "grid/embedded_surface.h"
#include "observations/capture.h"
#include "observations/camera_rig.h"
#include "observations/gaussian_noise.h"
#include "observations/render_capture.h"
#include "observations_test_support.h"
#include "support/uv_sphere.h"

namespace softfit::testing {

inline std::vector<Camera> ringOfCameras(const Vec3& lo, const Vec3& hi, int pixels) {
  CameraRigOptions rig;
  rig.width = rig.height = pixels;
  return camerasAroundBox(lo, hi, 6, rig);
}

inline PointCloud noisyView(const VecX& positions, const TriangleMatrix& triangles,
                            const std::vector<Camera>& cameras, double sigma, std::uint64_t seed) {
  PointCloud cloud = renderCloud(positions, triangles, cameras);
  GaussianNoise noise(seed);
  addGaussianNoise(cloud, sigma, noise);
  return cloud;
}

struct UnitSphere {
  VecX positions;  // flat 3V
  TriangleMatrix triangles;
};
inline UnitSphere unitSphere(int segments) {
  const UvSphere u = uvSphere(segments);
  UnitSphere s;
  s.positions.resize(3 * static_cast<int>(u.vertices.size()));
  for (size_t i = 0; i < u.vertices.size(); ++i) s.positions.segment<3>(3 * static_cast<int>(i)) = u.vertices[i];
  s.triangles.resize(static_cast<int>(u.triangles.size()), 3);
  for (size_t i = 0; i < u.triangles.size(); ++i) s.triangles.row(static_cast<int>(i)) = u.triangles[i].transpose();
  return s;
}

// The scale s in [0.9, 1.1] of the sphere where the cost's derivative along the radius
// changes sign, by bisection (the value jumps where silhouette pixels change; the
// derivative is that of the smooth piece). gradientAt(vertices, g) adds the cost's
// gradient to g.
inline double bestSphereScale(const VecX& unit, const std::function<void(const VecX&, VecX&)>& gradientAt) {
  double lo = 0.9, hi = 1.1;
  for (int k = 0; k < 30; ++k) {
    const double s = 0.5 * (lo + hi);
    VecX g = VecX::Zero(unit.size());
    gradientAt(s * unit, g);
    (g.dot(unit) > 0.0 ? hi : lo) = s;
  }
  return 0.5 * (lo + hi);
}

// An embedding that is not the identity: vertex v = 0.5 (node v + node v') with node v'
// a copy of v shifted by 0.1 in x, i.e. twice as many nodes as vertices; x receives the
// nodes.
inline EmbeddedSurface halfShiftedEmbedding(const VecX& vertices, const TriangleMatrix& triangles, VecX& x) {
  const int v = static_cast<int>(vertices.size() / 3);
  EmbeddedSurface surface;
  surface.triangles = triangles;
  surface.weights.resize(v, 2 * v);
  for (int i = 0; i < v; ++i) {
    surface.weights.insert(i, i) = 0.5;
    surface.weights.insert(i, v + i) = 0.5;
  }
  x.resize(6 * v);
  x << vertices, vertices;
  for (int i = 0; i < v; ++i) x[3 * (v + i)] += 0.1;
  return surface;
}

// The losses' test scene: one noisy frame (sigma 0.03, seed 4) of a two-cell box seen by
// six 16 x 16 cameras, the surface through halfShiftedEmbedding (nodes in x).
struct EmbeddedBoxCapture {
  Surface box;
  std::vector<Camera> cameras;
  VecX x;
  EmbeddedSurface surface;
  Capture capture;
};
inline EmbeddedBoxCapture embeddedBoxCapture() {
  EmbeddedBoxCapture s;
  s.box = makeBoxSurface(Vec3(0, 0, 0), Vec3(1, 0.6, 0.8), 2, 0.05, 9);
  s.cameras = ringOfCameras(Vec3(-0.1, -0.1, -0.1), Vec3(1.1, 0.7, 0.9), 16);
  s.surface = halfShiftedEmbedding(s.box.positions, s.box.triangles, s.x);
  s.capture.dt = 0.01;
  s.capture.frames.push_back({0, 1.0, noisyView(s.surface.flatPositions(s.x), s.box.triangles, s.cameras, 0.03, 4)});
  return s;
}

}  // namespace softfit::testing
