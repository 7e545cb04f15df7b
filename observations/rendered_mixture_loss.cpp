#include "observations/rendered_mixture_loss.h"

#include <string>
#include <utility>

#include "forward/errors.h"
#include "observations/observation_json.h"
#include "observations/rendered_mixture_cost.h"

namespace softfit {

RenderedMixtureLoss::RenderedMixtureLoss(Capture capture, EmbeddedSurface surface, std::vector<Camera> cameras,
                                         const PointCloudLossOptions& options)
    : CaptureLoss(std::move(capture), options, "rendered mixture loss"),
      surface_(std::move(surface)),
      cameras_(std::move(cameras)) {
  if (!(options.noiseSigma > 0.0))
    throw InputError(description() + ": needs the points' noise sigma (> 0): the cost is their likelihood under it");
  if (cameras_.empty()) throw InputError(description() + ": needs the cameras that took the capture");
  if (options.huberDelta > 0.0)
    throw InputError(description() + ": a Huber delta does not apply (the cost is robust through its outlier floor)");
  if (surface_.triangles.rows() == 0) throw InputError(description() + ": the surface has no triangles");
  if (surface_.triangles.minCoeff() < 0 || (!surface_.identity && surface_.triangles.maxCoeff() >= surface_.vertexCount()))
    throw InputError(description() + ": a surface triangle references a vertex the embedding does not have");
  for (size_t c = 0; c < cameras_.size(); ++c)
    withErrorPrefix(description() + ": camera " + std::to_string(c),
                    [&] { validateIntrinsics(cameras_[c].intrinsics, "intrinsics"); });
}

double RenderedMixtureLoss::frameCost(const PointCloud& cloud, const VecX& x, double weight, VecX& gx) {
  if (!surface_.identity && x.size() != 3 * surface_.weights.cols())
    throw InputError("the state has " + std::to_string(x.size() / 3) + " nodes, the surface embedding " +
                     std::to_string(surface_.weights.cols()));
  const VecX y = surface_.identity ? x : surface_.flatPositions(x);
  VecX gy = VecX::Zero(y.size());
  RenderedMixtureOptions options;
  options.sigma = this->options().noiseSigma;
  options.threads = this->options().threads;
  const double cost = renderedMixtureCost(cloud, y, surface_.triangles, cameras_, options, weight, &gy);
  surface_.addNodeGradient(gy, gx);
  return cost;
}

}  // namespace softfit
