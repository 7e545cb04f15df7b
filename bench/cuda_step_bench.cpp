// Per-step forward and backward (adjoint) time of the thesis Newmark-theta scheme, CPU
// (NewmarkThetaIntegrator: CHOLMOD-preconditioned PCG) vs GPU (CudaNewmarkIntegrator:
// block-Jacobi PCG, double), on the thesis cuboid (bench/grid_cuboid_bench.cpp: box SDF
// centred (0, 1, 0), half-extents (1.29, 0.4, 0.8), h = 1/r, warped corotation,
// E = 5e4, nu = 0.3, density 100, alpha = (0.1, 0.001), theta 0.6, dt 0.01, gravity
// (0, -10, 0)) for r = 5, 10, 15, 20 (Dirichlet: nodes with y < 0.65 fixed; collision:
// ground y = 0, initial velocity (0, -3, 0), edge-crossing contact) and a 100k+ cell
// cuboid (r = 32, collision).
//
// Forward: `steps` steps per integrator from the same initial state; the first step
// (packing / upload, symbolic analysis, first factorization) is reported separately.
// Backward: adjointStep over the CPU trajectory in reverse with a fixed seed adjoint.
// diff: largest relative difference GPU vs CPU over the forward states.
//
// Without the CUDA backend or without a GPU it prints why ("no GPU") and exits 0.
// Usage: cuda_step_bench [--quick | CASE:R ...]
//   --quick: r = 5, 10 only, no large scene; CASE:R (e.g. collision:20 collision:32):
//   only those rows (CASE dirichlet or collision; r = 32 runs 10 steps, others 30).
#include <chrono>
#include <cstdlib>
#include <cstdio>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#ifdef SOFTFIT_HAVE_CUDA
#include "cuda/cuda_newmark_integrator.h"
#include "forward/integrators/newmark_theta_integrator.h"
#include "forward/integrators/simulator.h"
#include "grid/cut_cell_grid.h"
#include "grid/grid_contact_points.h"
#include "grid/sdf_primitives.h"

namespace {

using namespace softfit;
using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point start) { return std::chrono::duration<double, std::milli>(Clock::now() - start).count(); }

struct Scene {
  std::unique_ptr<CutCellGrid> grid;
  std::unique_ptr<PhysicalModel> model;
  State initial;
};

Scene thesisCuboid(int r, bool collision) {
  Scene s;
  LatticeOptions options;
  options.cellSize = 1.0 / r;
  s.grid = std::make_unique<CutCellGrid>(sampleSdfLattice(BoxSdf(Vec3(0, 1, 0), Vec3(1.29, 0.4, 0.8)), options));
  std::vector<Element> elements = buildCutCellElements(*s.grid);
  const int m = static_cast<int>(elements.size());
  s.model = std::make_unique<PhysicalModel>(s.grid->restPositions(), std::move(elements), MaterialModel::WarpedCorotated,
                                            std::vector<LameParameters>(m, lameFromYoungPoisson(5e4, 0.3)),
                                            VecX::Constant(m, 100.0));
  s.model->gravity = Vec3(0, -10, 0);
  s.model->damping = {0.1, 0.001};
  if (collision) {
    GroundPlane plane;
    plane.stiffness = 1e7;  // per unit area (the points carry their areas)
    plane.sharpness = 100;
    s.model->ground = GroundContact(plane, edgeCrossingContactPoints(*s.grid));
  } else {
    DirichletGroup bottom;
    for (int i = 0; i < s.grid->nodeCount(); ++i)
      if (s.grid->restPositions()[3 * i + 1] < 0.65) bottom.nodes.push_back(i);
    s.model->dirichlet = DirichletBoundary({bottom}, s.model->restPositions());
  }
  s.initial = restState(*s.model);
  if (collision)
    for (int i = 0; i < s.model->nodeCount(); ++i) s.initial.v[3 * i + 1] = -3.0;
  return s;
}

struct Timing {
  double firstMs = 0.0, laterMs = 0.0, backwardMs = 0.0;
  double iterations = 0.0;
};

// Forward run from the scene's initial state; returns the states.
std::vector<State> forward(Scene& s, TimeIntegrator& integrator, int steps, Timing& t) {
  integrator.reset();
  std::vector<State> states{s.initial};
  for (int n = 0; n < steps; ++n) {
    const auto start = Clock::now();
    states.push_back(integrator.step(*s.model, states.back(), nullptr, 0.01));
    const double ms = msSince(start);
    (n == 0 ? t.firstMs : t.laterMs) += ms;
    t.iterations += integrator.lastStep().iterations;
  }
  t.laterMs /= std::max(1, steps - 1);
  t.iterations /= steps;
  return states;
}

void backward(Scene& s, TimeIntegrator& integrator, const std::vector<State>& states, Timing& t) {
  const int n = s.model->dofCount(), m = static_cast<int>(s.model->elastic().elements().size());
  ModelGradient gradient(m);
  StepAdjoint adj;
  adj.nextX = VecX::Constant(n, 1e-3);
  adj.nextV = VecX::Zero(n);
  adj.parameters = &gradient;
  const auto start = Clock::now();
  for (int k = static_cast<int>(states.size()) - 2; k >= 0; --k) {
    adj.currentX = VecX::Zero(n);
    adj.currentV = VecX::Zero(n);
    integrator.adjointStep(*s.model, states[k + 1], states[k], nullptr, 0.01, adj);
    adj.nextX = adj.currentX;
    adj.nextV = adj.currentV;
  }
  t.backwardMs = msSince(start) / (states.size() - 1);
}

void run(int r, bool collision, int steps) {
  Scene s = thesisCuboid(r, collision);
  IntegratorSettings settings;
  settings.type = IntegratorType::NewmarkTheta;
  settings.theta = 0.6;
  NewmarkThetaIntegrator cpu(settings);
  CudaNewmarkIntegrator gpu(settings);
  Timing tc, tg;
  const std::vector<State> ref = forward(s, cpu, steps, tc);
  const std::vector<State> got = forward(s, gpu, steps, tg);
  double diff = 0.0;
  for (size_t k = 1; k < ref.size(); ++k) {
    const VecX du = got[k].x - ref[k].x;
    diff = std::max(diff, du.norm() / std::max(1e-300, (ref[k].x - s.model->restPositions()).norm()));
  }
  backward(s, cpu, ref, tc);
  backward(s, gpu, ref, tg);
  std::printf("%-9s %3d %8d %8d %6d | %9.2f %9.2f %9.2f %7.1f | %9.2f %9.2f %9.2f %7.1f | %8.1f %8.1f %9.1e\n",
              collision ? "collision" : "dirichlet", r, s.grid->cellCount(), s.model->nodeCount(), steps, tc.firstMs,
              tc.laterMs, tc.backwardMs, tc.iterations, tg.firstMs, tg.laterMs, tg.backwardMs, tg.iterations,
              tc.laterMs / tg.laterMs, tc.backwardMs / tg.backwardMs, diff);
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  const bool quick = argc > 1 && std::strcmp(argv[1], "--quick") == 0;
  std::vector<std::pair<bool, int>> rows;  // (collision, r) from CASE:R arguments
  for (int i = quick ? 2 : 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const std::size_t colon = arg.find(':');
    const std::string name = arg.substr(0, colon);
    const int r = colon == std::string::npos ? 0 : std::atoi(arg.c_str() + colon + 1);
    if ((name != "dirichlet" && name != "collision") || r < 2) {
      std::fprintf(stderr, "cuda_step_bench: bad row \"%s\" (expected dirichlet:R or collision:R, R >= 2)\n", arg.c_str());
      return 2;
    }
    rows.emplace_back(name == "collision", r);
  }
  std::string why;
  if (!softfit::cudaDeviceAvailable(&why)) {
    std::printf("no GPU (%s): cuda_step_bench skipped\n", why.c_str());
    return 0;
  }
  std::printf("GPU: %s\n", why.c_str());
  std::printf("times in ms per step; fwd1 = first step (setup included), fwd = later steps, bwd = adjoint step\n");
  std::printf("%-9s %3s %8s %8s %6s | %9s %9s %9s %7s | %9s %9s %9s %7s | %8s %8s %9s\n", "case", "r", "cells", "nodes",
              "steps", "cpu fwd1", "cpu fwd", "cpu bwd", "cpu it", "gpu fwd1", "gpu fwd", "gpu bwd", "gpu it", "fwd x",
              "bwd x", "diff");
  if (!rows.empty()) {
    for (const auto& [collision, r] : rows) run(r, collision, r >= 32 ? 10 : 30);
    return 0;
  }
  for (bool collision : {false, true})
    for (int r : {5, 10, 15, 20}) {
      if (quick && r > 10) continue;
      run(r, collision, 30);
    }
  if (!quick) run(32, true, 10);  // 100k+ cells
  return 0;
}

#else  // CUDA backend not built

int main() {
  std::printf("no GPU: softfit was built without the CUDA backend (SOFTFIT_CUDA=OFF); cuda_step_bench skipped\n");
  return 0;
}

#endif
