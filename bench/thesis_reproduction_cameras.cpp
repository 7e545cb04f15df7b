#include "bench/thesis_reproduction_cameras.h"

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

#include "bench/thesis_reproduction.h"
#include "forward/integrators/simulator.h"
#include "observations/camera_rig.h"
#include "observations/render_capture.h"
#include "observations/rendered_mixture_cost.h"
#include "optim/fit_loss.h"
#include "optim/fit_problem.h"
#include "scene/scene_loader.h"

namespace softfit::thesis {

namespace {

// The point cost as `softfit fit --point-cost COST` builds it (optim/fit_loss.h); "sdf" is
// the thesis' grid cost; "mixture" sees the rendered surface through the capture's cameras.
std::unique_ptr<CaptureLoss> pointLoss(const BuiltScene& scene, const EmbeddedSurface& rendered,
                                       const std::vector<Camera>& cameras, const Capture& capture, double dt,
                                       const std::string& cost, double noiseSigma) {
  FitLossOptions options;
  options.noiseSigma = noiseSigma;
  PointCostGeometry geometry = pointCostGeometry(scene);
  if (cost == "mixture" || cost == "pixel") {
    geometry.surface = &rendered;
    geometry.cameras = cameras;
  }
  return makeCapturePointLoss(geometry, capture, pointLossOptions(capture, dt, cost, options), cost);
}

}  // namespace

CameraExperiment::CameraExperiment(const nlohmann::json& sceneJson, int cameraCount, int pixels,
                                   const std::string& parameters)
    : kinds_(parseParameterList(parameters)),
      description_(parseScene(sceneJson, "thesis-scene", ".")),
      scene_(buildScene(description_)) {
  truth_ = ParameterSpace(kinds_, {}).values(*scene_.model);
  surface_ = extractEmbeddedSurface(*scene_.grid, SurfaceResolution::Samples);
  // The rig frames the surface the cameras see, not the nodes: without the grid's
  // volume-fraction floor a node of a nearly empty cut cell (mass ~1e-14 of a full
  // cell's on the thesis bunny) swung metres away while the object stayed put, and its
  // box put the bunny's cameras 80 m away (183 points in 66 frames).
  const std::vector<State> states = simulate();
  Vec3 lo = Vec3::Constant(1e300), hi = Vec3::Constant(-1e300);
  for (const State& s : states) {
    Vec3 a, b;
    boundingBox(surface_.flatPositions(s.x), a, b);
    lo = lo.cwiseMin(a);
    hi = hi.cwiseMax(b);
  }
  CameraRigOptions rig;
  rig.width = rig.height = pixels;
  cameras_ = camerasAroundBox(lo, hi, cameraCount, rig);
}

int CameraExperiment::cells() const { return scene_.grid->cellCount(); }
int CameraExperiment::activeNodes() const { return scene_.grid->nodeCount(); }

Capture CameraExperiment::capture(const VecX& p, double sigma, std::uint64_t seed, int replicates) {
  setParameters(p);
  const std::vector<State> states = simulate();
  setParameters(truth_);
  return renderCapture(states, surface_, cameras_, NoiseOptions{sigma, seed, replicates}, 1, description_.dt);
}

PointFit CameraExperiment::fit(Capture capture, const VecX& start, int maxIterations, bool verbose,
                               const std::function<void(int, const VecX&)>& onIteration) {
  const std::unique_ptr<CaptureLoss> owned = pointLoss(scene_, surface_, cameras_, capture, description_.dt, pointCost_, noiseSigma_);
  CaptureLoss& loss = *owned;
  FitSetup setup{trajectorySetup(description_, scene_), &loss, {}};
  FitProblem problem(setup, ParameterSpace(kinds_, {}), defaultTransforms(kinds_));
  OptimizerOptions optimizer;
  optimizer.kind = defaultOptimizer(loss);
  optimizer.maxIterations = maxIterations;
  optimizer.gradientTolerance = 1e-12;
  optimizer.hessianPreconditioner = hessian_;
  PointFit fit;
  const OptimizationResult r =
      minimize(problem.objective(), problem.toInternal(start), optimizer, [&](const IterationRecord& it) {
        if (it.iteration == 0) fit.initialCost = it.cost;
        const VecX q = problem.toPhysical(it.point);
        if (onIteration) onIteration(it.iteration, q);
        if (verbose) {
          std::fprintf(stderr, "    it %d evals %d cost %.6e |g| %.3e p", it.iteration, it.evaluations, it.cost,
                       it.gradientNorm);
          for (int i = 0; i < q.size(); ++i) std::fprintf(stderr, " %.6g", q[i]);
          std::fprintf(stderr, " (%.1f s)\n", it.seconds);
        }
      });
  fit.p = problem.toPhysical(r.point);
  fit.iterations = r.iterations;
  fit.evaluations = r.evaluations;
  fit.cost = r.cost;
  fit.stop = r.stopReason;
  return fit;
}

StepSeconds CameraExperiment::stepSeconds(const Capture& capture, const VecX& p) {
  const std::unique_ptr<CaptureLoss> owned = pointLoss(scene_, surface_, cameras_, capture, description_.dt, pointCost_, noiseSigma_);
  CaptureLoss& loss = *owned;
  setParameters(p);
  double t0 = processCpuSeconds();
  const std::vector<State> states = simulate();
  const double forward = processCpuSeconds() - t0;
  t0 = processCpuSeconds();
  const int n = scene_.model->nodeCount();
  for (int step = 0; step < static_cast<int>(states.size()); ++step) {
    VecX gx = VecX::Zero(3 * n), gv = VecX::Zero(3 * n);
    loss.evaluate(step, states[step], gx, gv);
  }
  const double cost = processCpuSeconds() - t0;
  FitSetup setup{trajectorySetup(description_, scene_), &loss, {}};
  FitProblem problem(setup, ParameterSpace(kinds_, {}), defaultTransforms(kinds_));
  VecX gradient;
  t0 = processCpuSeconds();
  problem.objective()(problem.toInternal(p), gradient);
  const double total = processCpuSeconds() - t0;
  setParameters(truth_);
  const double steps = description_.steps;
  return {forward / steps, cost / steps, std::max(0.0, total - forward - cost) / steps};
}

double CameraExperiment::objective(const Capture& capture, const VecX& p, VecX* gradient) {
  const std::unique_ptr<CaptureLoss> loss = pointLoss(scene_, surface_, cameras_, capture, description_.dt, pointCost_, noiseSigma_);
  FitSetup setup{trajectorySetup(description_, scene_), loss.get(), {}};
  FitProblem problem(setup, ParameterSpace(kinds_, {}), defaultTransforms(kinds_));
  if (!gradient) return problem.cost(problem.toInternal(p));
  return problem.objective()(problem.toInternal(p), *gradient);
}

CameraExperiment::CramerRao CameraExperiment::cramerRaoRelativeStd(const VecX& p, double sigma) {
  const int n = static_cast<int>(p.size());
  const double h = 1e-4;
  std::vector<std::vector<State>> plus(n), minus(n);
  for (int k = 0; k < n; ++k) {
    VecX q = p;
    q[k] = p[k] * (1 + h);
    setParameters(q);
    plus[k] = simulate();
    q[k] = p[k] * (1 - h);
    setParameters(q);
    minus[k] = simulate();
  }
  setParameters(p);
  const std::vector<State> centre = simulate();
  setParameters(truth_);
  MatX known = MatX::Zero(n, n), normal = MatX::Zero(n, n);
  const auto pixelPoints = [&](const State& s) {
    std::map<long long, Vec3> points;
    for (const RenderedSample& r : renderSamples(surface_.flatPositions(s.x), surface_.triangles, cameras_))
      points.emplace(r.pixel, r.point);
    return points;
  };
  for (size_t f = 0; f < centre.size(); ++f) {
    std::vector<std::map<long long, Vec3>> up(n), down(n);
    for (int k = 0; k < n; ++k) {
      up[k] = pixelPoints(plus[k][f]);
      down[k] = pixelPoints(minus[k][f]);
    }
    const VecX vertices = surface_.flatPositions(centre[f].x);
    for (const RenderedSample& r : renderSamples(vertices, surface_.triangles, cameras_)) {
      MatX J(3, n);
      bool seen = true;
      for (int k = 0; k < n && seen; ++k) {
        const auto a = up[k].find(r.pixel), b = down[k].find(r.pixel);
        seen = a != up[k].end() && b != down[k].end();
        if (seen) J.col(k) = (a->second - b->second) / (2 * h * p[k]);
      }
      if (!seen) continue;
      known += J.transpose() * J;
      const auto t = surface_.triangles.row(r.triangle);
      const Vec3 a = vertices.segment<3>(3 * t[0]);
      const Vec3 m = (vertices.segment<3>(3 * t[1]) - a).cross(vertices.segment<3>(3 * t[2]) - a).normalized();
      const Eigen::RowVectorXd Jn = m.transpose() * J;
      normal += Jn.transpose() * Jn;
    }
  }
  const auto relative = [&](const MatX& fisher) {
    const MatX covariance = (fisher / (sigma * sigma)).inverse();
    VecX r(n);
    for (int k = 0; k < n; ++k) r[k] = std::sqrt(covariance(k, k)) / std::abs(p[k]);
    return r;
  };
  return {relative(known), relative(normal)};
}

VecX CameraExperiment::toInternal(const VecX& p) const { return defaultTransforms(kinds_).toInternal(p); }
VecX CameraExperiment::toPhysical(const VecX& q) const { return defaultTransforms(kinds_).toPhysical(q); }

std::vector<State> CameraExperiment::simulate() {
  Simulator sim(*scene_.model, makeIntegrator(description_.integrator), description_.dt);
  return sim.run(scene_.initial, description_.steps, true).states;
}

void CameraExperiment::setParameters(const VecX& p) {
  State unused = scene_.initial;
  ParameterSpace(kinds_, {}).apply(p, *scene_.model, unused);
}

long long pointCount(const Capture& c) {
  long long n = 0;
  for (const CaptureFrame& f : c.frames) n += f.cloud.size();
  return n;
}

}  // namespace softfit::thesis
