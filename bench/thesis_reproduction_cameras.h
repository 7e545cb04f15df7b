#pragma once
// A thesis scene observed by virtual depth cameras (Sphere layout around the true
// trajectory's bounding box) and fits of its parameters to the captures with the
// thesis' point cost (5.4.3: points located in the deformed cells, reference SDF;
// GridSdfPointLoss averaged over each frame's points) by gradient-only L-BFGS (the
// cost's value jumps where points change cell; `softfit fit --optimizer auto` uses it
// too). Shared by the noise, torus, bunny and dragon rows and Table 5.2.
#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "adjoint/parameter_space.h"
#include "grid/embedded_surface.h"
#include "observations/camera.h"
#include "observations/capture.h"
#include "optim/optimizer.h"
#include "scene/scene_builder.h"
#include "scene/scene_description.h"

namespace softfit::thesis {

struct PointFit {
  VecX p;  // physical parameters
  int iterations = 0, evaluations = 0;
  double initialCost = 0.0, cost = 0.0;
  std::string stop;
};

// Table 5.2: process CPU seconds per time step of one evaluation of the fit objective.
struct StepSeconds {
  double forward = 0.0, cost = 0.0, backward = 0.0;
};

class CameraExperiment {
 public:
  // `parameters`: a parameter list as `softfit fit --parameters` takes (e.g. "E,nu").
  CameraExperiment(const nlohmann::json& sceneJson, int cameraCount, int pixels, const std::string& parameters);

  int cells() const;
  int activeNodes() const;
  double cellSize() const { return description_.sdf->cellSize; }
  int steps() const { return description_.steps; }
  const VecX& truth() const { return truth_; }

  // The capture of the trajectory at physical parameters p with noise sigma (m).
  Capture capture(const VecX& p, double sigma, std::uint64_t seed, int replicates);

  // Fits in the coordinates of a finite-difference Hessian at the start (n more
  // evaluations; optim/hessian_preconditioner.h), as `softfit fit --precondition hessian`,
  // and with the point cost `pointCost` ("sdf": the thesis' cost, default; "closest";
  // "mixture": the noise-aware likelihood, "pixel": the per-pixel cost; both need
  // setNoiseSigma > 0).
  // The optimizer follows the cost (defaultOptimizer).
  void setFitVariant(bool hessian, const std::string& pointCost) {
    hessian_ = hessian;
    pointCost_ = pointCost;
  }
  // The captures' known point noise (m): the closest-point cost's first-order bias
  // correction, the mixture cost and the per-pixel cost's truncation use it (`softfit fit --noise-sigma`); the SDF cost
  // ignores it.
  void setNoiseSigma(double sigma) { noiseSigma_ = sigma; }

  // `onIteration` sees every iterate's physical parameters (iteration 0 = start).
  PointFit fit(Capture capture, const VecX& start, int maxIterations, bool verbose,
               const std::function<void(int iteration, const VecX& p)>& onIteration = {});

  // Forward, cost (value and gradient) and backward time per step of one objective
  // evaluation at p (backward = the evaluation's time less the other two).
  StepSeconds stepSeconds(const Capture& capture, const VecX& p);

  // The fit objective at physical p (the cost `fit` minimizes); with `gradient`, also
  // its gradient in the fit's internal coordinates (toInternal).
  double objective(const Capture& capture, const VecX& p, VecX* gradient = nullptr);

  // Cramer-Rao bound at p for noise sigma (m): the standard deviations, relative to p,
  // below which no unbiased estimator of the parameters from this capture's pixels can
  // go, even one told which pixel each point came from (`known`). Fisher information
  // sum_{frames, pixels} J^T J / sigma^2, J = d(rendered point)/dp by central differences
  // (relative step 1e-4; pixels that hit in all runs). `normal`: the same with J projected
  // on the surface normal, i.e. without the sliding along the surface that a
  // correspondence-free cost cannot see (an estimate, not a bound).
  struct CramerRao {
    VecX known, normal;
  };
  CramerRao cramerRaoRelativeStd(const VecX& p, double sigma);

  VecX toInternal(const VecX& p) const;
  VecX toPhysical(const VecX& q) const;

 private:
  std::vector<State> simulate();
  void setParameters(const VecX& p);

  std::vector<Parameter> kinds_;
  SceneDescription description_;
  BuiltScene scene_;
  VecX truth_;
  std::vector<Camera> cameras_;
  EmbeddedSurface surface_;
  bool hessian_ = false;
  std::string pointCost_ = "sdf";
  double noiseSigma_ = 0.0;
};

long long pointCount(const Capture& c);

}  // namespace softfit::thesis
