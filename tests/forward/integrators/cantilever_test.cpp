// Cantilever benchmarks against Euler-Bernoulli beam theory: static tip deflection under
// gravity and the first natural period, linear material, 10:1:1 bar clamped at x = 0.
#include <gtest/gtest.h>

#include <cmath>

#include "forward/integrators/quasi_static_solver.h"
#include "forward/integrators/simulator.h"
#include "support/box_model.h"
#include "forward/registry/integrator_registry.h"

namespace softfit {
namespace {

constexpr double kLength = 10.0, kYoungs = 1e6, kDensity = 1.0, kGravity = 10.0, kPoisson = 0.0;
constexpr double kInertia = 1.0 / 12.0;  // unit square cross-section

double eulerBernoulliTipDeflection() {
  const double q = kDensity * kGravity * 1.0;
  return q * std::pow(kLength, 4) / (8.0 * kYoungs * kInertia);
}

double eulerBernoulliFirstPeriod() {
  const double beta = 1.8751040687119611;
  const double omega = beta * beta * std::sqrt(kYoungs * kInertia / (kDensity * 1.0 * std::pow(kLength, 4)));
  return 2.0 * M_PI / omega;
}

struct Cantilever {
  TetMesh mesh;
  std::unique_ptr<PhysicalModel> model;
  std::vector<int> tip;
  explicit Cantilever(int cellsPerUnit) {
    mesh = makeBoxMesh(Vec3(0, -0.5, -0.5), Vec3(kLength, 0.5, 0.5), 10 * cellsPerUnit, cellsPerUnit, cellsPerUnit);
    model = testing::makeBoxModel(mesh, MaterialModel::Linear, kYoungs, kPoisson, kDensity);
    model->gravity = Vec3(0, -kGravity, 0);
    testing::clampNodesBelowX(*model, mesh, 1e-9);
    tip = nodesInBox(mesh, Vec3(kLength - 1e-9, -1, -1), Vec3(kLength + 1, 1, 1));
  }
  double tipDeflection(const VecX& x) const {
    double sum = 0.0;
    for (int i : tip) sum += x[3 * i + 1] - model->restPositions()[3 * i + 1];
    return -sum / tip.size();
  }
  VecX staticSolution() {
    IntegratorSettings settings;
    settings.type = IntegratorType::QuasiStatic;
    QuasiStaticSolver solver(settings);
    return solver.solve(*model, model->restPositions(), 0.0);
  }
};

TEST(Cantilever, StaticTipDeflectionConvergesToEulerBernoulli) {
  const double reference = eulerBernoulliTipDeflection();
  double previousError = 1e9;
  double finest = 0.0;
  for (int n : {2, 4, 8, 12}) {
    Cantilever c(n);
    const double deflection = c.tipDeflection(c.staticSolution());
    const double error = std::abs(deflection / reference - 1.0);
    std::printf("cantilever n=%d tets=%d tip deflection %.6g (Euler-Bernoulli %.6g, rel. error %.3f%%)\n", n,
                c.mesh.tetCount(), deflection, reference, 100 * error);
    EXPECT_LT(error, previousError) << "no convergence under refinement at n = " << n;
    previousError = error;
    finest = deflection;
  }
  EXPECT_NEAR(finest / reference, 1.0, 0.02);
}

TEST(Cantilever, FirstNaturalPeriodFromNewmarkMatchesEulerBernoulli) {
  Cantilever c(12);
  const double period = eulerBernoulliFirstPeriod();
  // Release from the static gravity deflection with gravity switched off: the motion is
  // dominated by the first bending mode.
  State initial = restState(*c.model);
  initial.x = c.staticSolution();
  c.model->gravity.setZero();
  IntegratorSettings settings;
  settings.type = IntegratorType::NewmarkTheta;
  settings.theta = 0.5;
  const double dt = period / 100.0;
  Simulator sim(*c.model, makeIntegrator(settings), dt);
  std::vector<double> upCrossings;
  double previous = c.tipDeflection(initial.x);
  sim.run(initial, 240, false, [&](const StepReport& r) {
    const double d = c.tipDeflection(r.state->x);
    if (previous < 0.0 && d >= 0.0) upCrossings.push_back(r.state->time - dt * d / (d - previous));
    previous = d;
  });
  ASSERT_GE(upCrossings.size(), 2u);
  const double measured = (upCrossings.back() - upCrossings.front()) / (upCrossings.size() - 1);
  std::printf("cantilever first period %.6g s (Euler-Bernoulli %.6g s, rel. error %.3f%%)\n", measured, period,
              100 * std::abs(measured / period - 1));
  EXPECT_NEAR(measured / period, 1.0, 0.02);
}

}  // namespace
}  // namespace softfit
