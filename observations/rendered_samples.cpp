#include "observations/rendered_samples.h"

#include <Eigen/Geometry>
#include <cmath>
#include <string>

#include "forward/errors.h"
#include "forward/mesh/triangle_bvh.h"
#include "observations/depth_renderer.h"

namespace softfit {

void validateRenderedCost(const std::string& cost, const RenderedCostOptions& options,
                          const std::vector<Camera>& cameras, const VecX& vertices, const VecX* gradient) {
  if (!(options.sigma > 0.0) || !std::isfinite(options.sigma))
    throw InputError(cost + ": noise sigma must be > 0 (got " + std::to_string(options.sigma) + ")");
  if (!(options.cutoff >= 1.0) || !std::isfinite(options.cutoff)) throw InputError(cost + ": cutoff must be >= 1 sigma");
  if (cameras.empty()) throw InputError(cost + ": no cameras");
  if (gradient && gradient->size() != vertices.size())
    throw InputError(cost + ": gradient has " + std::to_string(gradient->size()) + " entries, expected " +
                     std::to_string(vertices.size()));
}

long long cameraPixelCount(const std::vector<Camera>& cameras) {
  long long pixels = 0;
  for (const Camera& camera : cameras) {
    validateIntrinsics(camera.intrinsics, "camera" + (camera.name.empty() ? std::string() : " " + camera.name));
    pixels += static_cast<long long>(camera.intrinsics.width) * camera.intrinsics.height;
  }
  if (pixels > kMaxCameraPixels) throw InputError("rendered points: more than 1e8 pixels over all cameras");
  return pixels;
}

std::vector<RenderedSample> renderSamples(const VecX& vertices, const TriangleMatrix& triangles,
                                          const std::vector<Camera>& cameras, int threads) {
  cameraPixelCount(cameras);  // validates the intrinsics and the total
  const TriangleBvh bvh(vertices, triangles);
  std::vector<RenderedSample> samples;
  long long first = 0;  // the camera's first pixel over all cameras
  for (const Camera& camera : cameras) {
    const int width = camera.intrinsics.width;
    const std::vector<TriangleBvh::RayHit> hits = castPixelRays(camera, bvh, threads);
    for (std::size_t i = 0; i < hits.size(); ++i) {
      if (hits[i].triangle < 0) continue;
      const Vec3 direction = camera.pixelDirectionWorld(static_cast<int>(i) % width, static_cast<int>(i) / width);
      samples.push_back({camera.position + hits[i].t * direction, direction, hits[i].barycentric, hits[i].triangle,
                         first + static_cast<long long>(i)});
    }
    first += static_cast<long long>(hits.size());
  }
  return samples;
}

void addRenderedSampleGradient(const std::vector<RenderedSample>& samples, const std::vector<Vec3>& g,
                               const VecX& vertices, const TriangleMatrix& triangles, double weight, VecX& gradient) {
  for (std::size_t j = 0; j < samples.size(); ++j) {
    const RenderedSample& s = samples[j];
    const auto tri = triangles.row(s.triangle);
    const Vec3 a = vertices.segment<3>(3 * tri[0]);
    const Vec3 normal = (vertices.segment<3>(3 * tri[1]) - a).cross(vertices.segment<3>(3 * tri[2]) - a);
    const double nd = normal.dot(s.direction);
    if (nd == 0.0) continue;  // a ray in the triangle's plane hits no area
    const Vec3 push = (weight * s.direction.dot(g[j]) / nd) * normal;
    for (int k = 0; k < 3; ++k) gradient.segment<3>(3 * tri[k]) += s.barycentric[k] * push;
  }
}

}  // namespace softfit
