#include "observations/point_cloud_loss.h"

#include <cmath>
#include <string>

#include "forward/errors.h"
#include "observations/observation_json.h"
#include "observations/point_surface_cost.h"

namespace softfit {

PointCloudSurfaceLoss::PointCloudSurfaceLoss(Capture capture, TriangleMatrix surface,
                                             const PointCloudLossOptions& options)
    : capture_(std::move(capture)), surface_(std::move(surface)), options_(options) {
  const std::string where = "point-cloud loss (" + capture_.source + ")";
  if (options_.stride < 1) throw InputError(where + ": stride must be at least 1");
  if (!(options_.weight >= 0.0) || !std::isfinite(options_.weight)) throw InputError(where + ": weight must be >= 0");
  withErrorPrefix(where, [&] {
    validateRobustKernel(RobustKernel{options_.huberDelta});
  });
  if (surface_.rows() == 0) throw InputError(where + ": the surface has no triangles");
  if (surface_.minCoeff() < 0) throw InputError(where + ": the surface has a negative node index");
  if (capture_.frames.empty()) throw InputError(where + ": the capture has no frames");
  for (int k = 0; k < capture_.frameCount(); ++k) {
    const CaptureFrame& f = capture_.frames[k];
    if (f.frame != k) throw InputError(where + ": capture frames must be numbered 0..N-1 in order");
    if (!(f.weight >= 0.0) || !std::isfinite(f.weight))
      throw InputError(where + ": frame " + std::to_string(k) + ": weight must be >= 0");
    checkFinitePoints(f.cloud, where + ": frame " + std::to_string(k));
  }
}

int PointCloudSurfaceLoss::frameAtStep(int step) const {
  if (step < 0 || step % options_.stride != 0) return -1;
  const int f = step / options_.stride;
  return f < capture_.frameCount() ? f : -1;
}

double PointCloudSurfaceLoss::evaluate(int step, const State& state, VecX& gx, VecX& /*gv*/) {
  const int f = frameAtStep(step);
  if (f < 0) return 0.0;
  const CaptureFrame& frame = capture_.frames[f];
  if (frame.cloud.empty()) return 0.0;
  double weight = options_.weight * frame.weight;
  if (options_.averageOverPoints) weight /= frame.cloud.size();
  return withErrorPrefix("point-cloud loss: step " + std::to_string(step) + " (capture frame " + std::to_string(f) +
                             ")",
                         [&] {
                           return pointToSurfaceCost(frame.cloud, state.x, surface_,
                                                     RobustKernel{options_.huberDelta}, weight, &gx,
                                                     options_.threads);
                         });
}

}  // namespace softfit
