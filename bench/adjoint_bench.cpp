// Adjoint benchmarks (adjoint issue):
//  1. backward-pass time vs forward time on a ~10k-tet scene, per integrator;
//  2. peak stored states of binomial (revolve-style) checkpointing for 300 steps
//     within a budget of sqrt(T) + 2 states, and the recomputation it costs.
// Plain timing program (runs are long); prints a table. Usage: adjoint_bench [--quick]
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "adjoint/motion_loss.h"
#include "adjoint/trajectory_gradient.h"
#include "forward/integrators/simulator.h"
#include "support/box_model.h"

using namespace softfit;

namespace {

double seconds(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

struct Scene {
  TetMesh mesh;
  std::unique_ptr<PhysicalModel> model;
  State initial;
  Scene(int n, MaterialModel material) {
    mesh = makeBoxMesh(Vec3(0, 0, 0), Vec3(4, 1, 1), 4 * n, n, n);
    model = testing::makeBoxModel(mesh, material, 1e6, 0.3, 1000.0);
    model->gravity = Vec3(0, -9.81, 0);
    model->damping = {0.1, 0.001};
    testing::clampNodesBelowX(*model, mesh, 1e-9);
    initial = restState(*model);
  }
};

void forwardVersusBackward(int n, int steps) {
  struct Case {
    const char* name;
    MaterialModel material;
    IntegratorType integrator;
  };
  const Case cases[] = {{"newmark_theta warped_corotated", MaterialModel::WarpedCorotated, IntegratorType::NewmarkTheta},
                        {"backward_euler corotated", MaterialModel::Corotated, IntegratorType::BackwardEuler},
                        {"bdf2 stable_neo_hookean", MaterialModel::StableNeoHookean, IntegratorType::BDF2},
                        {"implicit_midpoint neo_hookean", MaterialModel::NeoHookean, IntegratorType::ImplicitMidpoint}};
  std::printf("\n## Backward vs forward time (%d tets, %d steps, dt 0.01, stored states)\n\n", 24 * n * n * n, steps);
  std::printf("| integrator / material | forward s | forward+backward s | backward s | backward/forward |\n");
  std::printf("|---|---:|---:|---:|---:|\n");
  for (const Case& c : cases) {
    Scene s(n, c.material);
    IntegratorSettings settings;
    settings.type = c.integrator;
    settings.theta = 0.6;
    MassWeightedMotionLoss loss(*s.model);
    auto t0 = std::chrono::steady_clock::now();
    trajectoryLoss({s.model.get(), settings, 0.01, steps, s.initial}, loss);
    const double forward = seconds(t0);
    t0 = std::chrono::steady_clock::now();
    trajectoryGradient({s.model.get(), settings, 0.01, steps, s.initial}, loss);
    const double total = seconds(t0);
    std::printf("| %s | %.2f | %.2f | %.2f | %.2f |\n", c.name, forward, total, total - forward,
                (total - forward) / forward);
    std::fflush(stdout);
  }
}

void binomialMemory(int n, int steps) {
  Scene s(n, MaterialModel::Corotated);
  IntegratorSettings settings;
  settings.type = IntegratorType::BackwardEuler;
  MassWeightedMotionLoss loss(*s.model);
  const int budget = static_cast<int>(std::ceil(std::sqrt(steps))) + 2;
  std::printf("\n## Binomial checkpointing, %d steps, %d tets (%d dofs, %.2f MiB per state)\n\n", steps,
              s.mesh.tetCount(), s.model->dofCount(), 2.0 * 8 * s.model->dofCount() / 1048576.0);
  std::printf("| strategy | budget (states) | peak stored states | peak state MiB | forward steps | time s | gradient = store-all |\n");
  std::printf("|---|---:|---:|---:|---:|---:|---|\n");
  auto t0 = std::chrono::steady_clock::now();
  const TrajectoryGradient all = trajectoryGradient({s.model.get(), settings, 0.01, steps, s.initial}, loss);
  const double tAll = seconds(t0);
  std::printf("| store all | - | %d | %.2f | %d | %.2f | - |\n", all.checkpoints.peakStoredStates,
              all.checkpoints.peakStateBytes / 1048576.0, all.checkpoints.forwardSteps, tAll);
  for (int b : {budget, 2 * budget}) {
    CheckpointOptions options;
    options.strategy = CheckpointStrategy::Binomial;
    options.maxStates = b;
    t0 = std::chrono::steady_clock::now();
    const TrajectoryGradient g = trajectoryGradient({s.model.get(), settings, 0.01, steps, s.initial}, loss, options);
    const double t = seconds(t0);
    const bool same = std::memcmp(g.parameters.mu.data(), all.parameters.mu.data(), sizeof(double) * g.parameters.mu.size()) == 0 &&
                      g.loss == all.loss;
    std::printf("| binomial | %d | %d | %.2f | %d | %.2f | %s |\n", b, g.checkpoints.peakStoredStates,
                g.checkpoints.peakStateBytes / 1048576.0, g.checkpoints.forwardSteps, t, same ? "bit-identical" : "DIFFERENT");
    std::fflush(stdout);
  }
}

}  // namespace

int main(int argc, char** argv) {
  const bool quick = argc > 1 && std::strcmp(argv[1], "--quick") == 0;
  std::printf("# softfit adjoint benchmark%s\n", quick ? " (quick)" : "");
  forwardVersusBackward(quick ? 4 : 8, quick ? 10 : 30);  // n = 8: 12288 tets
  binomialMemory(quick ? 2 : 3, 300);
  return 0;
}
