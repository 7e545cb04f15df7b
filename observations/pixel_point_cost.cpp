#include "observations/pixel_point_cost.h"

#include <algorithm>
#include <string>

#include "forward/errors.h"

namespace softfit {

double pixelPointCost(const PointCloud& cloud, const VecX& vertices, const TriangleMatrix& triangles,
                      const std::vector<Camera>& cameras, const PixelPointOptions& options, double weight,
                      VecX* gradient) {
  validateRenderedCost("per-pixel point cost", options, cameras, vertices, gradient);
  if (cloud.pixels.size() != static_cast<std::size_t>(cloud.size()))
    throw InputError("per-pixel point cost: the points carry no pixel ids (" + std::to_string(cloud.pixels.size()) +
                     " for " + std::to_string(cloud.size()) + " points); it needs each point's camera pixel");
  const long long pixels = cameraPixelCount(cameras);
  for (int i = 0; i < cloud.size(); ++i)
    if (cloud.pixels[i] < 0 || cloud.pixels[i] >= pixels)
      throw InputError("per-pixel point cost: point " + std::to_string(i) + " has pixel id " +
                       std::to_string(cloud.pixels[i]) + ", outside the cameras' " + std::to_string(pixels) +
                       " pixels");
  // (The ray casting's BVH refuses triangle indices out of range.)
  const std::vector<RenderedSample> samples = renderSamples(vertices, triangles, cameras, options.threads);
  const double outlier = 0.5 * options.cutoff * options.cutoff * options.sigma * options.sigma;
  std::vector<Vec3> g(gradient ? samples.size() : 0, Vec3::Zero());
  double cost = 0.0;
  for (int i = 0; i < cloud.size(); ++i) {
    // Samples are in increasing pixel order.
    const auto it = std::lower_bound(samples.begin(), samples.end(), cloud.pixels[i],
                                     [](const RenderedSample& s, long long p) { return s.pixel < p; });
    if (it == samples.end() || it->pixel != cloud.pixels[i]) {
      cost += outlier;
      continue;
    }
    const Vec3 r = it->point - cloud.point(i);
    const double half = 0.5 * r.squaredNorm();
    if (half >= outlier) {
      cost += outlier;
      continue;
    }
    cost += half;
    if (gradient) g[static_cast<std::size_t>(it - samples.begin())] += r;
  }
  if (gradient) addRenderedSampleGradient(samples, g, vertices, triangles, weight, *gradient);
  return weight * cost;
}

}  // namespace softfit
