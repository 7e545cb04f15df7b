// Mixed FEM vs Newton with a capped iteration count on a stiff swinging bar.
//
// Scene: a bar (0,0,0)-(2, 0.2, 0.2) of 10 x 1 x 1 cells (60 tets), stable neo-Hookean,
// E = 1e10 (default), nu = 0.3, density 1000, pinned on the hinge line x = 0, y = 0.2
// (nodes on it fixed), released horizontally under gravity (0, -9.81, 0): a stiff
// pendulum. Backward Euler, dt = 0.05, 60 steps (3 s).
//
// Rows: Newton (projected Newton, forward/solvers/newton_solver.h) converged and capped at
// k iterations (the capped iterate is used as the step result), mixed FEM converged and
// capped at k iterations. Reports kinetic energy (mean over the run, max, final), the
// total energy H = KE + elastic + gravity at the end relative to the start (BE dissipates
// even when converged), the largest stretch |s - 1| seen, and time per step.
//
// Usage: mfem_swing_bench [steps=60] [dt=0.05] [youngs=1e10] [cap=5]
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include "forward/errors.h"
#include "forward/integrators/step_problem.h"
#include "forward/integrators/simulator.h"
#include "forward/mesh/node_selection.h"
#include "forward/mesh/procedural_box.h"
#include "forward/schemes/energy_theta_scheme.h"
#include "forward/schemes/mixed_fem_integrator.h"
#include "support/box_model.h"

namespace {

using namespace softfit;

// Backward Euler with projected Newton stopped after `cap` iterations (no throw).
class CappedNewtonEuler {
 public:
  CappedNewtonEuler(int cap) {
    IntegratorSettings s;
    s.type = IntegratorType::BackwardEuler;
    scheme_ = std::make_unique<IncrementalPotentialIntegrator>(s);
    NewtonOptions o;
    o.maxIterations = cap;
    newton_ = NewtonSolver(o);
  }
  State step(PhysicalModel& model, const State& current, double dt) {
    const IncrementalPotentialCoefficients c = scheme_->coefficients(model, current, nullptr, dt);
    State next;
    next.time = current.time + dt;
    next.x = c.y;
    model.dirichlet.applyPositions(next.time, next.x);
    const SparseMatrix noDamping;
    StepObjective objective(model, c, noDamping, dt, {EigenvalueFilter::Clamp, 0.0});
    newton_.options().stepTolerance = 1e-10 * model.characteristicLength();
    const NewtonResult r = newton_.minimize(objective, next.x, model.fixedDofs());
    iterations = r.iterations;
    converged = r.converged;
    next.v = scheme_->velocity(next.x, current, nullptr, dt);
    model.dirichlet.applyVelocities(next.time, next.v);
    return next;
  }
  int iterations = 0;
  bool converged = false;

 private:
  std::unique_ptr<IncrementalPotentialIntegrator> scheme_;
  NewtonSolver newton_;
};

struct Row {
  std::string name;
  double meanKe = 0.0, maxKe = 0.0, finalKe = 0.0, finalH = 0.0, maxStretch = 0.0, msPerStep = 0.0;
  double meanIterations = 0.0;
  int unconverged = 0;
  int steps = 0;
  std::string failure;
};

double maxStretchDeviation(const PhysicalModel& model, const VecX& x) {
  double worst = 0.0;
  for (const Element& e : model.elastic().elements())
    for (const auto& q : e.quadrature) {
      const Eigen::JacobiSVD<Mat3> svd(deformationGradient(e, q, x));
      worst = std::max(worst, (svd.singularValues().array() - 1.0).abs().maxCoeff());
    }
  return worst;
}

Row run(const std::string& name, PhysicalModel& model, const State& initial, int steps, double dt,
        const std::function<State(const State&, int&, bool&)>& step) {
  Row row;
  row.name = name;
  const double h0 = model.kineticEnergy(initial.v) + model.potentialEnergy(initial.x);
  State current = initial;
  const auto start = std::chrono::steady_clock::now();
  for (int k = 1; k <= steps; ++k) {
    int iterations = 0;
    bool converged = true;
    try {
      current = step(current, iterations, converged);
    } catch (const std::exception& e) {
      row.failure = e.what();
      break;
    }
    row.steps = k;
    row.meanIterations += iterations;
    row.unconverged += converged ? 0 : 1;
    const double ke = model.kineticEnergy(current.v);
    row.meanKe += ke;
    row.maxKe = std::max(row.maxKe, ke);
    row.finalKe = ke;
    row.finalH = model.kineticEnergy(current.v) + model.potentialEnergy(current.x) - h0;
    row.maxStretch = std::max(row.maxStretch, maxStretchDeviation(model, current.x));
  }
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  if (row.steps > 0) {
    row.meanKe /= row.steps;
    row.meanIterations /= row.steps;
    row.msPerStep = ms / row.steps;
  }
  return row;
}

}  // namespace

int main(int argc, char** argv) {
  const int steps = argc > 1 ? std::atoi(argv[1]) : 60;
  const double dt = argc > 2 ? std::atof(argv[2]) : 0.05;
  const double youngs = argc > 3 ? std::atof(argv[3]) : 1e10;
  const int cap = argc > 4 ? std::atoi(argv[4]) : 5;

  const TetMesh mesh = makeBoxMesh(Vec3(0, 0, 0), Vec3(2, 0.2, 0.2), 10, 1, 1);
  auto model = testing::makeBoxModel(mesh, MaterialModel::StableNeoHookean, youngs, 0.3, 1000.0);
  model->gravity = Vec3(0, -9.81, 0);
  DirichletGroup hinge;
  hinge.nodes = nodesInBox(mesh, Vec3(-1e-9, 0.2 - 1e-9, -1), Vec3(1e-9, 1, 1));
  model->dirichlet = DirichletBoundary({hinge}, model->restPositions());
  const State initial = restState(*model);
  std::printf("swinging bar: %d tets, %zu hinge nodes, stable neo-Hookean E = %g, nu = 0.3, rho = 1000, BE, dt = %g, "
              "%d steps, cap = %d\n",
              mesh.tetCount(), hinge.nodes.size(), youngs, dt, steps, cap);

  std::vector<Row> rows;
  {
    CappedNewtonEuler newton(200);
    rows.push_back(run("Newton converged", *model, initial, steps, dt, [&](const State& s, int& it, bool& ok) {
      State n = newton.step(*model, s, dt);
      it = newton.iterations;
      ok = newton.converged;
      return n;
    }));
  }
  {
    CappedNewtonEuler newton(cap);
    rows.push_back(run("Newton capped at " + std::to_string(cap), *model, initial, steps, dt,
                       [&](const State& s, int& it, bool& ok) {
                         State n = newton.step(*model, s, dt);
                         it = newton.iterations;
                         ok = newton.converged;
                         return n;
                       }));
  }
  for (int maxIterations : {200, cap}) {
    MixedFemSettings settings;
    settings.maxIterations = maxIterations;
    settings.requireConvergence = false;
    MixedFemIntegrator mixed(settings);
    const std::string name = maxIterations == cap ? "MFEM capped at " + std::to_string(cap) : "MFEM converged";
    rows.push_back(run(name, *model, initial, steps, dt, [&](const State& s, int& it, bool& ok) {
      State n = mixed.step(*model, s, nullptr, dt);
      it = mixed.lastInfo().iterations;
      ok = mixed.lastInfo().converged;
      return n;
    }));
  }
  std::printf("\n| solver | steps | iters/step | unconverged steps | mean KE [J] | max KE [J] | final KE [J] | "
              "H_end - H_0 [J] | max stretch dev | ms/step |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
  for (const Row& r : rows)
    std::printf("| %s | %d | %.2f | %d | %.5g | %.5g | %.5g | %.5g | %.3g | %.2f |\n", r.name.c_str(), r.steps,
                r.meanIterations, r.unconverged, r.meanKe, r.maxKe, r.finalKe, r.finalH, r.maxStretch, r.msPerStep);
  for (const Row& r : rows)
    if (!r.failure.empty()) std::printf("%s stopped: %s\n", r.name.c_str(), r.failure.c_str());
  return 0;
}
