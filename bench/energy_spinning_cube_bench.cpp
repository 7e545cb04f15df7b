// Energy behaviour on a free spinning cube (tests/forward/schemes/energy_spinning_cube.h):
// implicit midpoint (IM), backward Euler (BE), the energy-aware stabilizer (eps = 0.01)
// restricted to IM/BE blends (theta in [0.5, 1]) and with its default range theta in
// [0.25, 1] (towards forward Euler), and the stabilizer followed by the FEPR projection.
//
// Usage: energy_spinning_cube_bench [steps=2000] [dt=0.05] [youngs=1e6] [omega=10] [cells=2]
// Prints per integrator: steps completed (IM may fail: Newton diverges once the energy
// explodes), max and final H / H0, the worst per-step |H - H_target| / |H_target|, the
// worst |c|_1 of the momenta, Newton solves per step and wall time.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "forward/errors.h"
#include "forward/integrators/incremental_potential_integrator.h"
#include "forward/schemes/energy_aware_integrator.h"
#include "forward/schemes/energy_spinning_cube.h"
#include "forward/schemes/momentum_damping.h"

namespace {

using namespace softfit;

struct Row {
  std::string name;
  int steps = 0;
  double maxRatio = 0.0, finalRatio = 0.0, worstBand = 0.0, worstMomentum = 0.0, solvesPerStep = 0.0;
  double ms = 0.0;
  std::string failure;
  int firstDoubling = -1;  // first step with H > 2 H0
};

Row run(const std::string& name, TimeIntegrator& integrator, PhysicalModel& model, const State& initial, int steps,
        double dt, const EnergyAwareIntegrator* aware) {
  Row row;
  row.name = name;
  const double h0 = model.kineticEnergy(initial.v) + model.potentialEnergy(initial.x);
  const Vec3 p0 = linearMomentum(model.mass(), initial.v);
  const Vec3 l0 = angularMomentum(model.mass(), initial.x, initial.v);
  State current = initial;
  double solves = 0.0;
  const auto start = std::chrono::steady_clock::now();
  for (int k = 1; k <= steps; ++k) {
    try {
      current = integrator.step(model, current, nullptr, dt);
    } catch (const SolveError& e) {
      row.failure = e.what();
      break;
    }
    row.steps = k;
    const double h = model.kineticEnergy(current.v) + model.potentialEnergy(current.x);
    row.maxRatio = std::max(row.maxRatio, h / h0);
    row.finalRatio = h / h0;
    if (row.firstDoubling < 0 && h > 2.0 * h0) row.firstDoubling = k;
    const double dp = (linearMomentum(model.mass(), current.v) - p0).lpNorm<1>();
    const double dl = (angularMomentum(model.mass(), current.x, current.v) - l0).lpNorm<1>();
    row.worstMomentum = std::max(row.worstMomentum, dp + dl);
    if (aware) {
      row.worstBand = std::max(row.worstBand, std::abs(h - aware->targetEnergy()) / std::abs(aware->targetEnergy()));
      solves += aware->lastInfo().solves;
    } else {
      row.worstBand = std::max(row.worstBand, std::abs(h - h0) / std::abs(h0));
      solves += 1.0;
    }
    if (!std::isfinite(h) || h > 1e6 * h0) {
      row.failure = "energy exploded";
      break;
    }
  }
  row.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  row.solvesPerStep = row.steps > 0 ? solves / row.steps : 0.0;
  return row;
}

}  // namespace

int main(int argc, char** argv) {
  const int steps = argc > 1 ? std::atoi(argv[1]) : 2000;
  const double dt = argc > 2 ? std::atof(argv[2]) : 0.05;
  const double youngs = argc > 3 ? std::atof(argv[3]) : 1e6;
  const double omega = argc > 4 ? std::atof(argv[4]) : 10.0;
  const int cells = argc > 5 ? std::atoi(argv[5]) : 2;
  testing::SpinningCube cube(cells, MaterialModel::StableNeoHookean, youngs, omega);
  PhysicalModel& model = *cube.model;
  std::printf("spinning cube: %d^3 cells, %d tets, stable neo-Hookean E = %g, nu = 0.3, rho = 1000, omega = %g, "
              "dt = %g, %d steps, H0 = %.6g\n",
              cells, cube.mesh.tetCount(), youngs, omega, dt, steps,
              model.kineticEnergy(cube.initial.v) + model.potentialEnergy(cube.initial.x));

  std::vector<Row> rows;
  for (IntegratorType type : {IntegratorType::ImplicitMidpoint, IntegratorType::BackwardEuler}) {
    IntegratorSettings s;
    s.type = type;
    IncrementalPotentialIntegrator integrator(s);
    rows.push_back(run(integratorTypeName(type), integrator, model, cube.initial, steps, dt, nullptr));
  }
  {
    EnergyAwareSettings s;
    s.minimumTheta = 0.5;
    EnergyAwareIntegrator integrator(s);
    rows.push_back(run("blended IM/BE only, theta in [0.5, 1]", integrator, model, cube.initial, steps, dt, &integrator));
  }
  {
    EnergyAwareSettings s;
    EnergyAwareIntegrator integrator(s);
    rows.push_back(run("blended, theta in [0.25, 1] (eps 0.01)", integrator, model, cube.initial, steps, dt, &integrator));
  }
  {
    EnergyAwareSettings s;
    s.projectEnergyMomentum = true;
    EnergyAwareIntegrator integrator(s);
    rows.push_back(run("blended + FEPR", integrator, model, cube.initial, steps, dt, &integrator));
  }
  std::printf("\n| integrator | steps done | first H > 2 H0 | max H/H0 | final H/H0 | worst per-step |H - H_target|/|H_target| "
              "| worst |dP|_1 + |dL|_1 | solves/step | ms |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
  for (const Row& r : rows)
    std::printf("| %s | %d | %s | %.4g | %.4g | %.3g | %.3g | %.2f | %.0f |\n", r.name.c_str(), r.steps,
                r.firstDoubling < 0 ? "-" : std::to_string(r.firstDoubling).c_str(), r.maxRatio, r.finalRatio,
                r.worstBand, r.worstMomentum, r.solvesPerStep, r.ms);
  for (const Row& r : rows)
    if (!r.failure.empty()) std::printf("%s stopped: %s\n", r.name.c_str(), r.failure.c_str());
  return 0;
}
