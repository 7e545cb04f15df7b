#include "observations/rendered_samples.h"

#include <Eigen/Geometry>

#include "forward/errors.h"
#include "forward/mesh/triangle_bvh.h"
#include "observations/depth_renderer.h"

namespace softfit {

std::vector<RenderedSample> renderSamples(const VecX& vertices, const TriangleMatrix& triangles,
                                          const std::vector<Camera>& cameras, int threads) {
  long long pixels = 0;
  for (const Camera& camera : cameras) {
    validateIntrinsics(camera.intrinsics, "camera" + (camera.name.empty() ? std::string() : " " + camera.name));
    pixels += static_cast<long long>(camera.intrinsics.width) * camera.intrinsics.height;
  }
  if (pixels > kMaxCameraPixels) throw InputError("rendered points: more than 1e8 pixels over all cameras");
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
