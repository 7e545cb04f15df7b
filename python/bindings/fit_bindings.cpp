#include "python/bindings/fit_bindings.h"

#include <pybind11/stl.h>

#include <filesystem>
#include <map>
#include <optional>

#include "forward/errors.h"
#include "forward/value_limits.h"
#include "observations/capture_io.h"
#include "observations/displacement_loss.h"
#include "optim/fit_setup.h"
#include "optim/fit_warnings.h"
#include "python/bindings/interruptible.h"
#include "python/bindings/numpy_views.h"
#include "python/bindings/python_scene.h"

namespace softfit::python {

namespace py = pybind11;

namespace {

py::list framesOf(const std::vector<CaptureFrame>& frames) {
  py::list out;
  for (const CaptureFrame& f : frames) {
    py::dict d;
    d["frame"] = f.frame;
    d["weight"] = f.weight;
    const PointMatrix& p = f.cloud.points;
    Array points({static_cast<py::ssize_t>(p.rows()), py::ssize_t(3)});
    for (py::ssize_t i = 0; i < p.rows(); ++i)
      for (int c = 0; c < 3; ++c) points.mutable_at(i, c) = p(i, c);
    d["points"] = points;
    out.append(d);
  }
  return out;
}

py::dict displacementsDict(const DisplacementObservations& observations) {
  py::dict out;
  out["dt"] = observations.dt;
  out["source"] = observations.source;
  py::list frames;
  for (const DisplacementFrame& f : observations.frames) {
    py::dict d;
    d["frame"] = f.frame;
    d["weight"] = f.weight;
    d["nodes"] = f.nodes;
    Array positions({static_cast<py::ssize_t>(f.positions.rows()), py::ssize_t(3)});
    for (py::ssize_t i = 0; i < f.positions.rows(); ++i)
      for (int c = 0; c < 3; ++c) positions.mutable_at(i, c) = f.positions(i, c);
    d["positions"] = positions;
    frames.append(d);
  }
  out["frames"] = frames;
  return out;
}

py::dict captureDict(const Capture& capture) {
  py::dict out;
  out["dt"] = capture.dt;
  out["source"] = capture.source;
  out["frames"] = framesOf(capture.frames);
  out["rest_frames"] = framesOf(capture.restFrames);
  return out;
}

struct PythonFitOptions {
  FitLossOptions loss;  // loss, point_cost, huber, noise_sigma
  std::string optimizer = "auto";
  std::string precondition = "none";
  int maxIterations = 100;
  double gradientTolerance = 1e-10, costTolerance = 1e-12;
};

py::dict fit(PythonScene& scene, const std::string& observations, const py::object& namesArg,
             const std::map<std::string, double>& start, const PythonFitOptions& options, const py::object& callback) {
  const std::vector<std::string> names = nameList(namesArg, "names");
  if (options.maxIterations < 1) throw InputError("max_iterations = " + std::to_string(options.maxIterations) + ": must be at least 1");
  for (const auto& [value, name] : {std::pair{options.gradientTolerance, "gradient_tolerance"},
                                    std::pair{options.costTolerance, "cost_tolerance"}})
    if (!(value >= 0.0) || !std::isfinite(value))
      throw InputError(std::string(name) + " = " + formatValue(value) + ": must be a finite number >= 0");
  ParameterSpace space = scene.space(names);
  const std::vector<std::string> expanded = space.names();
  const TransformSet transforms = defaultTransforms(space.parameters());
  VecX p0 = space.values(scene.model());
  applyStartValues(start, space, transforms, "params " + joinNames(expanded), p0, "start");
  if (!std::filesystem::is_directory(observations))
    throw InputError("observations: " + observations + " is not a folder");
  // The observations' loss and the fit setup as `softfit fit` builds them (optim/fit_setup.h).
  const FitObservations loaded =
      loadFitObservations(observations, scene.built(), scene.description().dt, options.loss);
  CheckpointOptions checkpoints;
  checkpoints.onForwardStep = checkInterrupt;  // Ctrl-C within an evaluation
  FitProblem problem(makeFitSetup(scene.trajectory(), loaded, checkpoints), space, transforms);
  OptimizerOptions optimizer;
  optimizer.kind = fitOptimizerKind(options.optimizer, *loaded.loss, "optimizer");
  optimizer.maxIterations = options.maxIterations;
  optimizer.gradientTolerance = options.gradientTolerance;
  optimizer.relativeCostTolerance = options.costTolerance;
  if (optimizer.maxIterations < 1) throw InputError("max_iterations: must be >= 1");
  if (options.precondition != "none" && options.precondition != "hessian" && options.precondition != "gauss-newton")
    throw InputError("precondition = \"" + options.precondition + "\": must be none, hessian or gauss-newton");
  optimizer.hessianPreconditioner = options.precondition == "hessian";
  if (options.precondition == "gauss-newton") {
    useGaussNewtonSteps(optimizer, problem, "precondition = \"gauss-newton\"");
    // Ctrl-C within the Jacobian's forward runs too.
    optimizer.hessian.gaussNewtonResiduals = [residuals = optimizer.hessian.gaussNewtonResiduals](const VecX& q) {
      checkInterrupt();
      return residuals(q);
    };
  }

  const ObjectiveFunction objective = [&problem](const VecX& q, VecX& gradient) {
    checkInterrupt();
    return problem.evaluate(q, gradient);
  };
  const IterationCallback onIteration = [&](const IterationRecord& r) {
    if (callback.is_none()) return;
    py::gil_scoped_acquire acquire;
    try {
      py::dict d;
      d["iteration"] = r.iteration;
      d["evaluations"] = r.evaluations;
      d["cost"] = r.cost;
      d["gradient_norm"] = r.gradientNorm;
      const VecX p = problem.toPhysical(r.point);
      d["params"] = py::array_t<double>(p.size(), p.data());
      d["names"] = expanded;
      callback(d);
    } catch (py::error_already_set& e) {
      e.restore();  // raised again by runWithoutGil
      throw Interrupted{};
    }
  };
  const OptimizationResult result =
      runWithoutGil([&] { return minimize(objective, problem.toInternal(p0), optimizer, onIteration); });
  const VecX p = problem.toPhysical(result.point);
  problem.apply(p);  // the scene keeps the fitted values
  restoreParameterValues(problem.parameterValues(), scene.model());
  scene.initial() = problem.initial();
  scene.keepParameters(problem.space());

  py::dict out;
  out["names"] = expanded;
  out["start"] = py::array_t<double>(p0.size(), p0.data());
  out["params"] = py::array_t<double>(p.size(), p.data());
  out["cost"] = result.cost;
  out["iterations"] = result.iterations;
  out["evaluations"] = result.evaluations;
  out["forward_runs_for_jacobian"] = result.residualEvaluations;  // gauss-newton's J
  out["converged"] = result.converged;
  out["stop_reason"] = result.stopReason;
  const FitUncertainty uncertainty = runWithoutGil([&] {
    return fitUncertainty(problem, result.point, observationNoiseSigma(options.loss.noiseSigma, observations));
  });
  if (uncertainty.available) {
    out["standard_errors"] = py::array_t<double>(uncertainty.standardError.size(), uncertainty.standardError.data());
    const MatX& correlation = uncertainty.correlation;
    py::array_t<double> c({correlation.rows(), correlation.cols()});
    for (Eigen::Index i = 0; i < correlation.rows(); ++i)
      for (Eigen::Index k = 0; k < correlation.cols(); ++k) c.mutable_at(i, k) = correlation(i, k);
    out["correlation"] = c;
    out["sigma"] = uncertainty.sigma;
  } else {
    out["standard_errors"] = py::none();
    out["correlation"] = py::none();
    out["uncertainty_unavailable"] = uncertainty.unavailable;
  }
  out["warnings"] = fitWarnings(expanded, p, transforms, loaded, observations, result.cost, options.loss.noiseSigma,
                                scene.model(), uncertainty);
  out["optimizer"] = optimizerKindName(optimizer.kind);
  return out;
}

}  // namespace

void bindFit(py::module_& m) {
  m.def(
      "load_capture", [](const std::string& dir) { return captureDict(loadCapture(dir)); }, py::arg("dir"),
      R"doc(A capture folder (capture.json + clouds / depth images, observations/README.md) as
{"dt", "source", "frames": [{"frame", "weight", "points": (P, 3)}], "rest_frames": [...]}.)doc");
  m.def(
      "load_displacements",
      [](const std::string& path) { return displacementsDict(readDisplacementObservations(path)); }, py::arg("path"),
      R"doc(Node displacement observations (displacements.json, as `softfit synth` writes them) as
{"dt", "source", "frames": [{"frame", "weight", "nodes" ([] = all), "positions": (K, 3)}]}.)doc");
  m.def(
      "fit",
      [](PythonScene& scene, const std::string& observations, const py::object& params,
         const std::map<std::string, double>& start, const std::string& loss, const std::string& optimizer,
         const std::string& pointCost, int maxIterations, double gradientTolerance, double costTolerance,
         double huber, double noiseSigma, const std::string& precondition, const py::object& callback) {
        PythonFitOptions options;
        options.precondition = precondition;
        options.loss.loss = loss;
        options.optimizer = optimizer;
        options.loss.pointCost = pointCost;
        options.maxIterations = maxIterations;
        options.gradientTolerance = gradientTolerance;
        options.costTolerance = costTolerance;
        options.loss.huber = huber;
        options.loss.noiseSigma = noiseSigma;
        return fit(scene, observations, params, start, options, callback);
      },
      py::arg("scene"), py::arg("observations"), py::arg("params") = "E,nu,alpha1,alpha2",
      py::arg("start") = std::map<std::string, double>{}, py::arg("loss") = "auto", py::arg("optimizer") = "auto",
      py::arg("point_cost") = "auto", py::arg("max_iterations") = 100, py::arg("gradient_tolerance") = 1e-10,
      py::arg("cost_tolerance") = 1e-12, py::arg("huber") = 0.0, py::arg("noise_sigma") = 0.0,
      py::arg("precondition") = "none", py::arg("callback") = py::none(),
      R"doc(`softfit fit` on a capture folder (capture.json or displacements.json) from Python.

callback(record) runs after every iteration with {"iteration", "evaluations", "cost",
"gradient_norm", "params", "names"}; an exception it raises stops the fit and propagates.
precondition="hessian" runs the optimizer in the coordinates of a finite-difference
Hessian at the start (as `softfit fit --precondition hessian`); precondition="gauss-newton"
(displacement observations) makes every step a Gauss-Newton step (J^T J of the residuals
re-taken every iteration, as `softfit fit --precondition gauss-newton`). point_cost="mixture"
with noise_sigma > 0 fits noisy point clouds by their likelihood (no noise bias; the model
rendered with the folder's cameras.json); point_cost="pixel" compares each point with the
model's point at the same camera pixel (frames of one depth image each). The scene keeps the
fitted values. Returns {"names", "start", "params", "cost",
"iterations", "evaluations", "forward_runs_for_jacobian", "converged", "stop_reason",
"standard_errors" and "correlation" (Gauss-Newton at the end point, inf: not determined;
None with "uncertainty_unavailable" for costs without a least-squares form), "sigma",
"warnings" (a parameter at an absurd value or a bound, a residual the noise does not
explain, a parameter the capture does not identify), "optimizer"}.)doc");
}

}  // namespace softfit::python
