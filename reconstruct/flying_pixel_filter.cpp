#include "reconstruct/flying_pixel_filter.h"

#include <algorithm>
#include <cmath>

namespace softfit {

int removeFlyingPixels(DepthMap& map, double fx, const DepthNoise& noise, const FlyingPixelOptions& options) {
  const DepthMap in = map;
  const double slope = std::tan(options.maxSlopeDegrees * M_PI / 180.0) / fx;
  int removed = 0;
  for (int v = 0; v < in.height; ++v) {
    for (int u = 0; u < in.width; ++u) {
      const double z = in.at(u, v);
      if (z <= 0.0) continue;
      const double tolerance = std::max({options.sigmas * noise.sigma(z), options.depthRatio * z, slope * z});
      auto measured = [&](int a, int b) { return a >= 0 && b >= 0 && a < in.width && b < in.height && in.at(a, b) > 0.0; };
      auto jump = [&](int a, int b) { return measured(a, b) && std::abs(in.at(a, b) - z) > tolerance; };
      bool supported = false;
      for (int dv = -1; dv <= 1; ++dv)
        for (int du = -1; du <= 1; ++du)
          if ((du != 0 || dv != 0) && measured(u + du, v + dv) && !jump(u + du, v + dv)) supported = true;
      const bool flying = (jump(u - 1, v) && jump(u + 1, v)) || (jump(u, v - 1) && jump(u, v + 1));
      if (flying || !supported) {
        map.at(u, v) = 0.0;
        ++removed;
      }
    }
  }
  return removed;
}

}  // namespace softfit
