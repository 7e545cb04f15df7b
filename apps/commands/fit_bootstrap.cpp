#include "apps/commands/fit_bootstrap.h"

#include <climits>
#include <cmath>
#include <cstdio>
#include <map>

#include "apps/commands/bootstrap_refits.h"
#include "forward/errors.h"
#include "forward/registry/simulate.h"
#include "observations/camera_json.h"
#include "observations/render_capture.h"
#include "optim/bootstrap_bias.h"

namespace softfit::apps {

CaptureBootstrapOptions makeCaptureBootstrapOptions(int steps, int replicates, int refits, int starts, double sigma,
                                                    const std::string& camerasPath, const Capture& capture, int stride) {
  if (steps < 0) throw InputError("--bootstrap-steps must be >= 0");
  if (!(sigma > 0.0) || !std::isfinite(sigma))
    throw InputError("--bootstrap-steps needs the capture's noise: --noise-sigma must be > 0");
  if (replicates < 1) throw InputError("--bootstrap-replicates must be at least 1");
  if (refits < 1) throw InputError("--bootstrap-refits must be at least 1");
  constexpr long long kMaxRefitStarts = 10000;  // each one a whole fit
  if (starts < 1 || static_cast<long long>(refits) * starts > kMaxRefitStarts)
    throw InputError("--bootstrap-refits x --multi-start: " + std::to_string(refits) + " x " + std::to_string(starts) +
                     " refit starts per step are too many (at most " + std::to_string(kMaxRefitStarts) + ")");
  CaptureBootstrapOptions options;
  options.steps = steps;
  options.replicates = replicates;
  options.refits = refits;
  options.sigma = sigma;
  options.cameras = readCameras(camerasPath);
  options.stride = stride;
  options.frames = capture.frameCount();
  return options;
}

namespace {

// The step's re-estimate from its refits' gathered start results (refit-major): each
// refit's best start (reported), then the mean of the refits (bootstrap_refits.h).
VecX averageRefits(const std::vector<TaskResult>& results, int refits, const BootstrapRefitter& refitter, int step,
                   bool root, bool& solveFailed) {
  const int starts = static_cast<int>(refitter.starts.size());
  std::vector<OptimizationResult> best;
  for (int refit = 0; refit < refits; ++refit) {
    MultiStartRun run;
    run.starts = refitter.starts;
    for (int s = 0; s < starts; ++s) run.results.push_back(decodeOptimizationResult(results[refit * starts + s].bytes));
    run.best = bestStartIndex(run.results);
    if (refitter.report) refitter.report(refit, run);
    best.push_back(run.bestResult());
  }
  const RefitMean mean = combineRefits(best);
  if (mean.failed > 0 && root) {
    std::printf("  bootstrap step %d: %d of %d refit%s hit a failed forward solve; %s\n", step + 1, mean.failed, refits,
                refits == 1 ? "" : "s",
                mean.allFailed ? "using the best points so far (exit 3)"
                               : ("the step averages the other " + std::to_string(mean.used)).c_str());
    std::fflush(stdout);
  }
  solveFailed = solveFailed || mean.allFailed;
  return mean.point;
}

}  // namespace

VecX bootstrapCaptureFit(const BuiltScene& scene, FitProblem& problem, const VecX& estimate,
                         const CaptureBootstrapOptions& options, const BootstrapRefitter& refitter,
                         WorkDistribution& distribution, FitBootstrapSummary& summary, bool& solveFailed) {
  // The geometry synth renders (grid scenes: the surface at full sample resolution).
  const EmbeddedSurface surface =
      scene.isGrid() ? extractEmbeddedSurface(*scene.grid, SurfaceResolution::Samples) : scene.embeddedSurface;
  const int steps = (options.frames - 1) * options.stride;
  const int starts = static_cast<int>(refitter.starts.size());
  int step = 0;  // 0-based
  const auto reestimate = [&](const VecX& q) {
    std::vector<State> states;  // on every process: the refits need it
    double dt = 0.0;
    problem.runAt(problem.toPhysical(q), [&](TrajectorySetup trajectory) {  // at the current estimate
      trajectory.steps = steps;
      dt = trajectory.dt;
      states = simulate(trajectory, true).states;
    });
    // The problem now holds the step's parameters; every refit task starts from a copy of it.
    std::map<int, Capture> rendered;  // this process' synthetic captures, by refit
    const auto captureOf = [&](int refit) -> const Capture& {
      auto found = rendered.find(refit);
      if (found != rendered.end()) return found->second;
      const NoiseOptions noise{options.sigma, bootstrapNoiseSeed(options.seed, options.steps, step, refit),
                               options.replicates};
      Capture synthetic = renderCapture(states, surface, options.cameras, noise, options.stride, dt);
      if (synthetic.frameCount() != options.frames)
        throw InputError("bootstrap: the re-rendered capture has " + std::to_string(synthetic.frameCount()) +
                         " frames, the real one " + std::to_string(options.frames));
      const std::string which =
          options.refits > 1 ? ", refit " + std::to_string(refit) : std::string();
      std::printf("  bootstrap step %d%s: refitting a capture rendered at the current estimate "
                  "(%d points, noise seed %llu)\n",
                  step + 1, which.c_str(), synthetic.totalPoints(), static_cast<unsigned long long>(noise.seed));
      std::fflush(stdout);
      return rendered.emplace(refit, std::move(synthetic)).first->second;
    };
    // Refits x starts, spread over the processes; each result depends only on its task.
    const std::vector<TaskResult> results = distribution.runAll(options.refits * starts, [&](int task) {
      const int refit = task / starts;
      return encodeOptimizationResult(refitter.fitStart(captureOf(refit), refit, task % starts));
    });
    for (const TaskResult& r : results) r.rethrow();  // the first error, the same on every process
    const VecX mean = averageRefits(results, options.refits, refitter, step, distribution.isRoot(), solveFailed);
    ++step;
    return mean;
  };
  std::vector<BootstrapStep> history;
  const VecX corrected = bootstrapBiasCorrection(estimate, reestimate, options.steps, &history);
  summary.steps = options.steps;
  summary.replicates = options.replicates;
  summary.refits = options.refits;
  summary.sigma = options.sigma;
  summary.estimate = problem.toPhysical(estimate);
  for (const BootstrapStep& s : history) {
    summary.points.push_back(problem.toPhysical(s.point));
    summary.reestimates.push_back(problem.toPhysical(s.reestimate));
  }
  problem.apply(problem.toPhysical(corrected));
  return corrected;
}

}  // namespace softfit::apps
