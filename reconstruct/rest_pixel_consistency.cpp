#include "reconstruct/rest_pixel_consistency.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace softfit {

int removeInconsistentRestPixels(std::vector<RawDepthFrame>& restFrames, int cameraCount, const DepthNoise& noise,
                                 const RestPixelConsistencyOptions& options) {
  if (static_cast<int>(restFrames.size()) < options.minFrames) return 0;
  int removed = 0;
  const std::size_t agree = static_cast<std::size_t>(std::max(1, options.minAgreeing));
  for (int c = 0; c < cameraCount; ++c) {
    std::vector<DepthMap*> maps;
    for (RawDepthFrame& frame : restFrames)
      for (RawDepthView& view : frame.views)
        if (view.camera == c) maps.push_back(&view.depth);
    if (static_cast<int>(maps.size()) < options.minFrames) continue;
    const std::size_t pixels = maps.front()->depth.size();
    std::vector<double> z;
    for (std::size_t p = 0; p < pixels; ++p) {
      z.clear();
      for (const DepthMap* m : maps)
        if (m->depth[p] > 0.0) z.push_back(m->depth[p]);
      if (z.empty()) continue;
      std::sort(z.begin(), z.end());
      // The nearest window [z_i, z_i + k sigma(z_i)] holding minAgreeing depths.
      double lo = INFINITY, hi = -INFINITY;
      for (std::size_t i = 0; i + agree <= z.size(); ++i) {
        const double limit = z[i] + options.sigmas * noise.sigma(z[i]);
        if (z[i + agree - 1] <= limit) {
          lo = z[i];
          hi = limit;
          break;
        }
      }
      for (DepthMap* m : maps) {
        double& depth = m->depth[p];
        if (depth > 0.0 && (depth < lo || depth > hi)) {
          depth = 0.0;
          ++removed;
        }
      }
    }
  }
  return removed;
}

}  // namespace softfit
