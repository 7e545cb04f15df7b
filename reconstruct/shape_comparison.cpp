#include "reconstruct/shape_comparison.h"

#include <cmath>

#include "forward/mesh/triangle_bvh.h"
#include "scene/scene_builder.h"
#include "scene/scene_loader.h"
#include "grid/embedded_surface.h"

namespace softfit {

namespace {

// Area-weighted mean distance from A's triangle centroids to surface B.
double meanDistance(const TriangleSurface& a, const TriangleSurface& b) {
  const VecX flat = Eigen::Map<const VecX>(b.vertices.data(), b.vertices.size());
  const TriangleBvh bvh(flat, b.triangles);
  double sum = 0.0, area = 0.0;
  for (int t = 0; t < a.triangles.rows(); ++t) {
    const Vec3 p = a.vertices.row(a.triangles(t, 0)).transpose(), q = a.vertices.row(a.triangles(t, 1)).transpose(),
               r = a.vertices.row(a.triangles(t, 2)).transpose();
    const double w = 0.5 * (q - p).cross(r - p).norm();
    sum += w * std::sqrt(bvh.closestPoint((p + q + r) / 3.0).distanceSquared);
    area += w;
  }
  return area > 0.0 ? sum / area : 0.0;
}

}  // namespace

ShapeComparison compareShapes(const TriangleSurface& reconstructed, const TriangleSurface& truth) {
  ShapeComparison c;
  c.volume = enclosedVolume(reconstructed);
  c.trueVolume = enclosedVolume(truth);
  c.volumeErrorPercent = 100.0 * (c.volume - c.trueVolume) / c.trueVolume;
  c.chamfer = 0.5 * (meanDistance(reconstructed, truth) + meanDistance(truth, reconstructed));
  return c;
}

TriangleSurface sceneRestSurface(const std::string& scenePath) {
  const BuiltScene scene = buildScene(loadScene(scenePath));
  const EmbeddedSurface surface =
      scene.isGrid() ? extractEmbeddedSurface(*scene.grid, SurfaceResolution::Samples) : scene.embeddedSurface;
  TriangleSurface out;
  out.vertices = surface.positions(scene.initial.x);
  out.triangles = surface.triangles;
  return out;
}

}  // namespace softfit
