#include "apps/commands/fit_bootstrap.h"

#include <cmath>
#include <cstdio>

#include "forward/errors.h"
#include "forward/integrators/simulator.h"
#include "observations/camera_json.h"
#include "observations/render_capture.h"
#include "optim/bootstrap_bias.h"

namespace softfit::apps {

CaptureBootstrapOptions makeCaptureBootstrapOptions(int steps, int replicates, double sigma,
                                                    const std::string& camerasPath, const Capture& capture, int stride) {
  if (steps < 0) throw InputError("--bootstrap-steps must be >= 0");
  if (!(sigma > 0.0) || !std::isfinite(sigma))
    throw InputError("--bootstrap-steps needs the capture's noise: --noise-sigma must be > 0");
  if (replicates < 1) throw InputError("--bootstrap-replicates must be at least 1");
  CaptureBootstrapOptions options;
  options.steps = steps;
  options.replicates = replicates;
  options.sigma = sigma;
  options.cameras = readCameras(camerasPath);
  options.stride = stride;
  options.frames = capture.frameCount();
  return options;
}

VecX bootstrapCaptureFit(const BuiltScene& scene, FitProblem& problem, const VecX& estimate,
                         const CaptureBootstrapOptions& options,
                         const std::function<VecX(const Capture&)>& fitCapture, FitBootstrapSummary& summary) {
  // The geometry synth renders (grid scenes: the surface at full sample resolution).
  const EmbeddedSurface surface =
      scene.isGrid() ? extractEmbeddedSurface(*scene.grid, SurfaceResolution::Samples) : scene.embeddedSurface;
  const int steps = (options.frames - 1) * options.stride;
  std::uint64_t seed = options.seed;
  const auto reestimate = [&](const VecX& q) {
    std::vector<State> states;
    problem.runAt(problem.toPhysical(q), [&](TrajectorySetup trajectory) {  // at the current estimate
      trajectory.steps = steps;
      states = simulate(trajectory, true).states;
    });
    const NoiseOptions noise{options.sigma, seed++, options.replicates};
    const Capture synthetic =
        renderCapture(states, surface, options.cameras, noise, options.stride, problem.setup().trajectory.dt);
    if (synthetic.frameCount() != options.frames)
      throw InputError("bootstrap: the re-rendered capture has " + std::to_string(synthetic.frameCount()) +
                       " frames, the real one " + std::to_string(options.frames));
    std::printf("  bootstrap step %d: refitting a capture rendered at the current estimate "
                "(%d points, noise seed %llu)\n",
                static_cast<int>(seed - options.seed), synthetic.totalPoints(), static_cast<unsigned long long>(noise.seed));
    std::fflush(stdout);
    return fitCapture(synthetic);
  };
  std::vector<BootstrapStep> history;
  const VecX corrected = bootstrapBiasCorrection(estimate, reestimate, options.steps, &history);
  summary.steps = options.steps;
  summary.replicates = options.replicates;
  summary.sigma = options.sigma;
  summary.estimate = problem.toPhysical(estimate);
  for (const BootstrapStep& step : history) {
    summary.points.push_back(problem.toPhysical(step.point));
    summary.reestimates.push_back(problem.toPhysical(step.reestimate));
  }
  problem.apply(problem.toPhysical(corrected));
  return corrected;
}

}  // namespace softfit::apps
