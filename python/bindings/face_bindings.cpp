#include "python/bindings/face_bindings.h"

#include <pybind11/stl.h>

#include <memory>
#include <optional>

#include "face/activation_all_at_once.h"
#include "face/activation_fit.h"
#include "face/geometry_fit.h"
#include "face/face_io.h"
#include "face/face_solver.h"
#include "forward/errors.h"
#include "python/bindings/interruptible.h"
#include "python/bindings/numpy_views.h"

namespace softfit::python {

namespace py = pybind11;
using namespace softfit::face;

namespace {

// The model, its muscle geometry S and a solver bound to them (the solver keeps a
// reference to the model: the object never moves, pybind11 holds it by pointer).
class PythonFace {
 public:
  explicit PythonFace(const std::string& path) : model_(loadFaceModel(path)), geometry_(model_.geometry), solver_(model_) {}
  const FaceModel& model() const { return model_; }
  const MuscleGeometry& geometry() const { return geometry_; }
  void setGeometry(const std::string& csv) { geometry_ = readGeometryCsv(csv, model_); }
  void setGeometry(MuscleGeometry geometry) { geometry_ = std::move(geometry); }
  FaceSolver& solver() { return solver_; }

 private:
  FaceModel model_;
  MuscleGeometry geometry_;
  FaceSolver solver_;
};

std::vector<Vec6> activationsFrom(const Array& a, int rows, const std::string& field) {
  requireShape(a, {rows, 6}, field);
  std::vector<Vec6> out(rows);
  for (int i = 0; i < rows; ++i)
    for (int c = 0; c < 6; ++c) out[i][c] = a.at(i, c);
  for (const Vec6& v : out)
    if (!v.allFinite()) throw InputError(field + ": holds a value that is not finite");
  return out;
}

Array activationArray(const std::vector<Vec6>& a) {
  Array out({static_cast<py::ssize_t>(a.size()), py::ssize_t(6)});
  for (size_t i = 0; i < a.size(); ++i)
    for (int c = 0; c < 6; ++c) out.mutable_at(i, c) = a[i][c];
  return out;
}

JawPose jawFrom(const std::optional<Array>& jaw) {
  JawPose pose = JawPose::Zero();
  if (!jaw) return pose;
  requireShape(*jaw, {5}, "jaw");
  for (int i = 0; i < 5; ++i) pose[i] = jaw->at(i);
  if (!pose.allFinite()) throw InputError("jaw: holds a value that is not finite");
  return pose;
}

Array solve(PythonFace& face, const Array& activations, const std::optional<Array>& jaw, bool perTet) {
  const FaceModel& model = face.model();
  const std::vector<Vec6> tets =
      perTet ? activationsFrom(activations, model.tetCount(), "activations")
             : face.geometry().tetActivations(activationsFrom(activations, model.muscleCount(), "activations"));
  const JawPose pose = jawFrom(jaw);
  VecX x;
  runWithoutGil([&] { face.solver().solve(tets, pose, x); });
  return toRowsOf3(x);
}

py::dict expressionDict(const std::string& name, const Expression& e) {
  py::dict d;
  d["name"] = name;
  d["activations"] = activationArray(e.activations);
  d["jaw"] = py::array_t<double>(5, e.jaw.data());
  return d;
}

py::list fitTargets(PythonFace& face, const std::string& folder, bool perTet, bool fitJaw, int maxIterations) {
  const std::vector<FaceTarget> targets = loadFaceTargets(folder, face.model());
  ActivationFitOptions options;
  options.kind = perTet ? ActivationModel::PerTet : ActivationModel::Muscles;
  options.fitJaw = fitJaw;
  if (maxIterations < 1) throw InputError("max_iterations: must be >= 1");
  options.maxIterations = maxIterations;
  py::list out;
  StartLinearization start;  // every target starts from rest: its linearization is shared
  for (const FaceTarget& target : targets) {
    const ActivationFitResult r = runWithoutGil([&] {
      checkInterrupt();
      return fitActivations(face.solver(), face.geometry(), target, restExpression(face.model(), options.kind), options,
                            nullptr, &start);
    });
    py::dict d = expressionDict(target.name, r.expression);
    d["positions"] = toRowsOf3(r.positions);
    d["mean_error"] = r.meanError;
    d["max_error"] = r.maxError;
    d["iterations"] = r.iterations;
    d["converged"] = r.converged;
    out.append(d);
  }
  return out;
}


// `softfit face fit`: alternates activation fits and S-solves over all targets, then keeps
// the fitted S in the model (solve and fit_activations use it afterwards).
py::dict fitGeometryTo(PythonFace& face, const std::string& folder, int rounds, int geometryIterations, bool fitJaw,
                       int maxIterations, const py::object& callback) {
  if (rounds < 1) throw InputError("rounds: must be >= 1");
  if (geometryIterations < 1) throw InputError("geometry_iterations: must be >= 1");
  if (maxIterations < 1) throw InputError("max_iterations: must be >= 1");
  const std::vector<FaceTarget> targets = loadFaceTargets(folder, face.model());
  GeometryFitOptions options;
  options.activation.kind = ActivationModel::Muscles;
  options.activation.fitJaw = fitJaw;
  options.activation.maxIterations = maxIterations;
  options.rounds = rounds;
  options.geometryIterations = geometryIterations;
  py::list history;
  const GeometryFitCallback onRound = [&](const GeometryFitRound& r) {
    py::gil_scoped_acquire acquire;
    py::dict d;
    d["round"] = r.round;
    d["mean_error"] = r.meanError;
    d["geometry_objective"] = r.geometryObjective;
    d["inverted_tets"] = r.invertedTets;
    d["geometry_iterations"] = r.geometryIterations;
    d["seconds"] = r.seconds;
    history.append(d);
    if (PyErr_CheckSignals() != 0) throw py::error_already_set();
    if (!callback.is_none()) callback(d);  // an exception stops the fit and propagates
  };
  GeometryFitResult fit = runWithoutGil([&] { return fitGeometry(face.model(), face.geometry(), targets, options, onRound); });
  py::list fitted;
  for (size_t t = 0; t < targets.size(); ++t) {
    py::dict d = expressionDict(targets[t].name, fit.expressions[t]);
    d["positions"] = toRowsOf3(fit.positions[t]);
    d["mean_error"] = fit.meanErrors[t];
    fitted.append(d);
  }
  face.setGeometry(std::move(fit.geometry));
  py::dict out;
  out["history"] = history;
  out["targets"] = fitted;
  return out;
}

}  // namespace

void bindFace(py::module_& m) {
  py::class_<PythonFace>(m, "FaceModel", R"doc(A face model (model.json, face/README.md; `softfit face generate`
writes a synthetic one): muscle activations -> quasi-static equilibrium, and activation
fits to target scans.)doc")
      .def(py::init<const std::string&>(), py::arg("path"))
      .def_property_readonly("node_count", [](const PythonFace& f) { return f.model().nodeCount(); })
      .def_property_readonly("tet_count", [](const PythonFace& f) { return f.model().tetCount(); })
      .def_property_readonly("muscle_names", [](const PythonFace& f) { return f.model().muscleNames; })
      .def_property_readonly("rest_positions", [](const PythonFace& f) { return toRowsOf3(f.model().mesh.restPositions()); })
      .def("load_geometry", py::overload_cast<const std::string&>(&PythonFace::setGeometry), py::arg("csv"), "Muscle geometry S from a CSV (as `face fit` writes)")
      .def("solve", &solve, py::arg("activations"), py::arg("jaw") = py::none(), py::arg("per_tet") = false,
           R"doc(Equilibrium node positions (N, 3) for activations (muscles x 6, or tets x 6 with
per_tet=True; (1, 0, 0, 1, 0, 1) = rest) and a jaw pose (5,). SolveError when Newton fails.)doc")
      .def("fit_activations", &fitTargets, py::arg("targets"), py::arg("per_tet") = false, py::arg("fit_jaw") = true,
           py::arg("max_iterations") = 60,
           R"doc(`softfit face solve`: fits activations (and the jaw) to each scan of a targets folder
(targets.json). Returns a list of {"name", "activations", "jaw", "positions", "mean_error",
"max_error", "iterations", "converged"}.)doc")
      .def("fit_geometry", &fitGeometryTo, py::arg("targets"), py::arg("rounds") = 3,
           py::arg("geometry_iterations") = 25, py::arg("fit_jaw") = true, py::arg("max_iterations") = 60,
           py::arg("callback") = py::none(),
           R"doc(`softfit face fit`: fits the muscle geometry S, activations and jaws to all scans of a
targets folder, alternating activation fits and S-solves for `rounds` rounds; callback(dict)
after each round. The model keeps the fitted S. Returns {"history": [{"round",
"mean_error", "geometry_objective", "inverted_tets", "geometry_iterations", "seconds"}],
"targets": [{"name", "activations", "jaw", "positions", "mean_error"}]}.)doc");
}

}  // namespace softfit::python
