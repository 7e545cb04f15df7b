#include "python/bindings/scene_bindings.h"

#include <pybind11/stl.h>

#include <cstring>
#include <optional>

#include "adjoint/trajectory_gradient.h"
#include "forward/errors.h"
#include "python/bindings/interruptible.h"
#include "python/bindings/numpy_views.h"
#include "python/bindings/python_scene.h"

namespace softfit::python {

namespace py = pybind11;

namespace {

// A name list as the CLI's --params: "E,nu" or ["E", "nu"].
std::vector<std::string> namesOf(const py::handle& names) { return nameList(names, "names"); }

// L = sum_k <dL/dx_k, x_k> + <dL/dv_k, v_k>: its gradient is the given per-frame arrays,
// so the reverse pass maps any loss's per-frame gradient to the parameters.
class LinearTrajectoryLoss final : public TrajectoryLoss {
 public:
  LinearTrajectoryLoss(const double* dx, const double* dv, int dofs) : dx_(dx), dv_(dv), dofs_(dofs) {}
  double evaluate(int frame, const State& s, VecX& gx, VecX& gv) override {
    checkInterrupt();
    const size_t offset = static_cast<size_t>(frame) * dofs_;
    const Eigen::Map<const VecX> ax(dx_ + offset, dofs_);
    gx += ax;
    double value = ax.dot(s.x);
    if (dv_) {
      const Eigen::Map<const VecX> av(dv_ + offset, dofs_);
      gv += av;
      value += av.dot(s.v);
    }
    return value;
  }

 private:
  const double *dx_, *dv_;
  int dofs_;
};

void copyState(const State& s, double* x, double* v, double* t, int frame) {
  const size_t n = s.x.size();
  std::memcpy(x + frame * n, s.x.data(), sizeof(double) * n);
  std::memcpy(v + frame * n, s.v.data(), sizeof(double) * n);
  t[frame] = s.time;
}


py::array_t<int> triangleArray(const BuiltScene& scene) {
  const SurfaceTriangles& tri = scene.embeddedSurface.triangles;
  py::array_t<int> out({static_cast<py::ssize_t>(tri.rows()), py::ssize_t(3)});
  if (tri.size()) std::memcpy(out.mutable_data(), tri.data(), sizeof(int) * tri.size());
  return out;
}

py::dict simulateScene(PythonScene& scene, std::optional<int> steps) {
  TrajectorySetup setup = scene.trajectory();
  if (steps) {
    if (*steps < 0) throw InputError("steps: " + std::to_string(*steps) + " is negative");
    setup.steps = *steps;
  }
  setup.validate(scene.description().source);
  const py::ssize_t frames = setup.steps + 1, n = setup.model->nodeCount();
  Array x({frames, n, py::ssize_t(3)}), v({frames, n, py::ssize_t(3)}), t({frames});
  double *xp = x.mutable_data(), *vp = v.mutable_data(), *tp = t.mutable_data();
  copyState(setup.initial, xp, vp, tp, 0);
  runWithoutGil([&] {
    simulate(setup, false, [&](const StepReport& r) {
      copyState(*r.state, xp, vp, tp, r.step);
      checkInterrupt();
    });
  });
  py::dict out;
  out["x"] = x;
  out["v"] = v;
  out["t"] = t;
  out["triangles"] = triangleArray(scene.built());
  return out;
}

py::dict gradientOf(PythonScene& scene, const py::object& names, const Array& dx, const std::optional<Array>& dv,
                    const std::string& checkpointing) {
  std::optional<ParameterSpace> space;
  if (!names.is_none() && !(py::isinstance<py::list>(names) && py::len(names) == 0))
    space.emplace(scene.space(namesOf(names)));
  TrajectorySetup setup = scene.trajectory();
  const py::ssize_t frames = setup.steps + 1, n = setup.model->nodeCount();
  requireShape(dx, {frames, n, 3}, "dl_dx");
  requireFinite(dx, "dl_dx");
  if (dv) requireShape(*dv, {frames, n, 3}, "dl_dv");
  if (dv) requireFinite(*dv, "dl_dv");
  LinearTrajectoryLoss loss(dx.data(), dv ? dv->data() : nullptr, setup.model->dofCount());
  CheckpointOptions checkpoints;
  checkpoints.strategy = parseCheckpointStrategy(checkpointing, "checkpointing");
  checkpoints.onForwardStep = checkInterrupt;
  const TrajectoryGradient g = runWithoutGil([&] { return trajectoryGradient(setup, loss, checkpoints); });
  py::dict out;
  out["loss"] = g.loss;
  if (space) {
    const VecX d = space->gradient(scene.model(), g);
    out["gradient"] = py::array_t<double>(d.size(), d.data());
    out["names"] = space->names();
  } else {
    out["gradient"] = py::array_t<double>(0);
    out["names"] = std::vector<std::string>{};
  }
  out["initial_x"] = toRowsOf3(g.initialX);
  out["initial_v"] = toRowsOf3(g.initialV);
  return out;
}

}  // namespace

void bindScene(py::module_& m) {
  m.def(
      "parameter_names",
      [] {
        std::vector<std::string> names;
        for (const ParameterDescriptor& d : parameterDescriptors()) names.push_back(d.name);
        return names;
      },
      "The names a parameter list may use (the CLI's --params), without groups and regions");
  m.def(
      "parameter_range",
      [](const std::string& name) {
        const ParameterDescriptor* d = findParameterDescriptor(name);
        if (!d) throw InputError("name: unknown parameter \"" + name + "\"");
        return py::make_tuple(d->range.lower, d->range.upper, d->range.lowerOpen, d->range.upperOpen);
      },
      py::arg("name"),
      "(lower, upper, lower_open, upper_open): the values set_parameters, the CLI's --start and the scene reader "
      "accept");
  py::class_<PythonScene>(m, "Scene", R"doc(A scene (the CLI's scene JSON), built and ready to simulate.

Scene(path) loads a file; Scene.from_json(text, base_dir) (or softfit.scene_from_dict)
parses a document. Parameters use the CLI's --params names (E, nu, density, alpha1,
alpha2, gravity[_x|_y|_z], ground[_theta|_phi|_offset], velocity[_x|_y|_z],
angular_velocity[_x|_y|_z], E@k, ...); changes persist in the scene.)doc")
      .def(py::init([](const std::string& path) { return PythonScene::fromFile(path); }), py::arg("path"))
      .def_static("from_json", &PythonScene::fromJson, py::arg("text"), py::arg("source") = "<dict>",
                  py::arg("base_dir") = ".", "A scene from JSON text; relative paths resolve against base_dir")
      .def_property_readonly("source", [](const PythonScene& s) { return s.description().source; })
      .def_property_readonly("node_count", [](PythonScene& s) { return s.model().nodeCount(); })
      .def_property_readonly("is_grid", [](const PythonScene& s) { return s.built().isGrid(); })
      .def_property_readonly("summary", [](const PythonScene& s) { return s.built().summary(); })
      .def_property_readonly("dt", [](const PythonScene& s) { return s.description().dt; })
      .def_property(
          "steps", [](const PythonScene& s) { return s.description().steps; },
          [](PythonScene& s, int steps) {
            if (steps < 0) throw InputError("steps: " + std::to_string(steps) + " is negative");
            s.description().steps = steps;
          },
          "Steps of simulate() and trajectory_gradient() (the scene's time.steps unless set)")
      .def_property_readonly("rest_positions", [](PythonScene& s) { return toRowsOf3(s.model().restPositions()); })
      .def_property_readonly(
          "masses",
          [](PythonScene& s) {
            const VecX& m = s.model().mass();
            py::array_t<double> out(m.size() / 3);
            for (py::ssize_t i = 0; i < out.size(); ++i) out.mutable_at(i) = m[3 * i];
            return out;
          },
          "Lumped mass per node (N,)")
      .def_property_readonly("triangles", [](const PythonScene& s) { return triangleArray(s.built()); },
                             "Surface triangles (M, 3): node indices for tet scenes, surface vertices for grids")
      .def(
          "surface_positions",
          [](const PythonScene& s, const Array& x) {
            const int n = static_cast<int>(s.built().model->nodeCount());
            return toRowsOf3(s.built().embeddedSurface.flatPositions(fromRowsOf3(x, n, "x")));
          },
          py::arg("x"), "Surface vertex positions (V, 3) for node positions x (N, 3)")
      .def_property_readonly("initial_x", [](PythonScene& s) { return toRowsOf3(s.initial().x); })
      .def_property_readonly("initial_v", [](PythonScene& s) { return toRowsOf3(s.initial().v); })
      .def(
          "set_initial_state",
          [](PythonScene& s, const std::optional<Array>& x, const std::optional<Array>& v) {
            const int n = s.model().nodeCount();
            State next = s.initial();
            if (x) next.x = fromRowsOf3(*x, n, "x0");
            if (v) next.v = fromRowsOf3(*v, n, "v0");
            s.initial() = std::move(next);
          },
          py::arg("x0") = py::none(), py::arg("v0") = py::none(),
          "Replaces the initial positions and/or velocities (N, 3); velocity parameters set later overwrite v0")
      .def("reset_initial_state", [](PythonScene& s) { s.initial() = s.built().initial; })
      .def(
          "parameter_names", [](const PythonScene& s, const py::object& names) { return s.space(namesOf(names)).names(); },
          py::arg("names"), "The names expanded (\"gravity\" -> gravity_x, gravity_y, gravity_z)")
      .def(
          "get_parameters",
          [](const PythonScene& s, const py::object& names) {
            const VecX p = s.parameters(namesOf(names));
            return py::array_t<double>(p.size(), p.data());
          },
          py::arg("names"))
      .def(
          "set_parameters",
          [](PythonScene& s, const py::object& names, const Array& values, bool trial) {
            if (values.ndim() != 1) throw InputError("values: expected a 1-d array");
            s.setParameters(namesOf(names), Eigen::Map<const VecX>(values.data(), values.size()), trial);
          },
          py::arg("names"), py::arg("values"), py::arg("trial") = false,
          R"doc(Sets the named values (the scene keeps them). Setting E alone keeps nu as read back from
the Lame parameters, so the last bits depend on what was set before; trial=True first
restores the parameters of the last non-trial set, so that the same call gives the
same bits whatever ran in between (softfit.torch uses it).)doc")
      .def("simulate", &simulateScene, py::arg("steps") = py::none(),
           R"doc(Runs the trajectory (GIL released; Ctrl-C raises KeyboardInterrupt).
Returns {"x": (T+1, N, 3), "v": (T+1, N, 3), "t": (T+1,), "triangles": (M, 3)}.)doc")
      .def("trajectory_gradient", &gradientOf, py::arg("names"), py::arg("dl_dx"), py::arg("dl_dv") = py::none(),
           py::arg("checkpointing") = "all",
           R"doc(One adjoint pass for a loss whose per-frame gradients are dl_dx (and dl_dv), (T+1, N, 3).
Returns {"gradient": dL/dparams, "names": expanded names, "initial_x": dL/dx0, "initial_v": dL/dv0,
"loss": sum_k <dl_dx_k, x_k> + <dl_dv_k, v_k>}.)doc");
}

}  // namespace softfit::python
