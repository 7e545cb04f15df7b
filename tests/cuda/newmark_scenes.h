#pragma once
// Small scenes and comparisons for the GPU Newmark backend tests: the same model stepped
// and differentiated by NewmarkThetaIntegrator (CPU reference) and by
// CudaNewmarkIntegrator (device or host emulation).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "cuda/cuda_newmark_integrator.h"
#include "forward/errors.h"
#include "forward/integrators/newmark_theta_integrator.h"
#include "forward/integrators/simulator.h"
#include "grid/cut_cell_grid.h"
#include "grid/grid_contact_points.h"
#include "grid/sdf_primitives.h"
#include "support/box_model.h"

namespace softfit::testing {

struct NewmarkScene {
  std::string name;
  std::unique_ptr<PhysicalModel> model;
  State initial;
  double dt = 0.01;
  int steps = 8;
};

// Warped-corotated tet bar clamped at x = 0, sagging under gravity, Rayleigh damping and
// one attachment spring.
inline NewmarkScene clampedBoxScene() {
  NewmarkScene s;
  s.name = "clamped tet box";
  const TetMesh mesh = makeBoxMesh(Vec3(0, 0, 0), Vec3(1.0, 0.25, 0.25), 6, 2, 2);
  s.model = makeBoxModel(mesh, MaterialModel::WarpedCorotated, 2e4, 0.3, 100.0);
  clampNodesBelowX(*s.model, mesh, 1e-9);
  s.model->gravity = Vec3(0, -10, 0);
  s.model->damping = {0.1, 0.002};
  AttachmentSpring spring;
  spring.node = s.model->nodeCount() - 1;
  spring.target = s.model->restPositions().segment<3>(3 * spring.node) + Vec3(0.0, 0.05, 0.02);
  spring.stiffness = 200.0;
  s.model->attachments = AttachmentSprings({spring});
  s.initial = restState(*s.model);
  return s;
}

// Linear-material tet box dropped on a tilted ground plane (every node a contact point).
inline NewmarkScene droppedBoxScene(MaterialModel material = MaterialModel::Linear) {
  NewmarkScene s;
  s.name = "dropped tet box";
  const TetMesh mesh = makeBoxMesh(Vec3(0, 0.02, 0), Vec3(0.4, 0.22, 0.2), 3, 2, 2);
  s.model = makeBoxModel(mesh, material, 1e4, 0.3, 100.0);
  s.model->gravity = Vec3(0, -10, 0);
  s.model->damping = {0.05, 0.001};
  GroundPlane plane;
  plane.normal = Vec3(0.1, 1.0, 0.05).normalized();
  plane.offset = 0.01;
  std::vector<int> nodes(s.model->nodeCount());
  for (int i = 0; i < s.model->nodeCount(); ++i) nodes[i] = i;
  s.model->ground = GroundContact(plane, nodes);
  s.initial = restState(*s.model);
  for (int i = 0; i < s.model->nodeCount(); ++i) s.initial.v[3 * i + 1] = -2.0;
  return s;
}

// Warped-corotated cut-cell grid box (partial cells on every side) dropped on the ground,
// contact at the SDF's edge crossings.
inline NewmarkScene droppedGridScene() {
  NewmarkScene s;
  s.name = "dropped cut-cell grid";
  const BoxSdf box(Vec3(0.01, 0.19, 0.02), Vec3(0.23, 0.13, 0.17));
  LatticeOptions options;
  options.cellSize = 0.1;
  const CutCellGrid grid(sampleSdfLattice(box, options));
  std::vector<Element> elements = buildCutCellElements(grid);
  const int m = static_cast<int>(elements.size());
  s.model = std::make_unique<PhysicalModel>(grid.restPositions(), std::move(elements), MaterialModel::WarpedCorotated,
                                            std::vector<LameParameters>(m, lameFromYoungPoisson(2e4, 0.3)),
                                            VecX::Constant(m, 100.0));
  s.model->gravity = Vec3(0, -10, 0);
  s.model->damping = {0.1, 0.001};
  GroundPlane plane;
  // Per unit area (the points carry their areas); about 1e4 per point at this cell size,
  // so the box reaches the ground within the test's steps.
  plane.stiffness = 1.5e6;
  plane.sharpness = 100;
  s.model->ground = GroundContact(plane, edgeCrossingContactPoints(grid));
  s.initial = restState(*s.model);
  for (int i = 0; i < s.model->nodeCount(); ++i) s.initial.v[3 * i + 1] = -2.0;
  s.steps = 10;
  return s;
}

template <typename A, typename B>
inline double relativeDifference(const Eigen::MatrixBase<A>& a, const Eigen::MatrixBase<B>& b) {
  const double scale = std::max(b.norm(), 1e-300);
  return (a - b).norm() / scale;
}
inline double relativeDifference(double a, double b) { return std::abs(a - b) / std::max(std::abs(b), 1e-300); }
inline double relativeDifference3(const Vec3& a, const Vec3& b) {
  return (a - b).norm() / std::max(b.norm(), 1e-300);
}

inline IntegratorSettings newmarkSettings() {
  IntegratorSettings settings;
  settings.type = IntegratorType::NewmarkTheta;
  settings.theta = 0.6;
  settings.pcgTolerance = 1e-12;
  return settings;
}

// Steps both integrators from the same states (each step starts from the CPU state, so
// differences do not compound) and checks the states; returns the CPU trajectory.
inline std::vector<State> compareSteps(NewmarkScene& scene, TimeIntegrator& gpu, double tolerance) {
  NewmarkThetaIntegrator cpu(newmarkSettings());
  std::vector<State> states{scene.initial};
  double worst = 0.0;
  int iterations = 0;
  for (int n = 0; n < scene.steps; ++n) {
    const State& current = states.back();
    const State ref = cpu.step(*scene.model, current, nullptr, scene.dt);
    const State got = gpu.step(*scene.model, current, nullptr, scene.dt);
    const double du = relativeDifference(got.x - scene.model->restPositions(), ref.x - scene.model->restPositions());
    const double dv = relativeDifference(got.v, ref.v);
    EXPECT_LT(du, tolerance) << scene.name << " step " << n << " displacement";
    EXPECT_LT(dv, tolerance) << scene.name << " step " << n << " velocity";
    worst = std::max({worst, du, dv});
    iterations += gpu.lastStep().iterations;
    states.push_back(ref);
  }
  std::printf("%s: %d steps, worst relative state difference %.2e, %.1f PCG iterations per step\n", scene.name.c_str(),
              scene.steps, worst, static_cast<double>(iterations) / scene.steps);
  return states;
}

inline VecX randomVector(int n, std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  VecX v(n);
  for (int i = 0; i < n; ++i) v[i] = u(rng);
  return v;
}

// Adjoint of the step states[k] -> states[k+1] with random incoming adjoints, CPU vs
// `gpu`: state adjoints and every parameter gradient.
inline void compareAdjointStep(NewmarkScene& scene, TimeIntegrator& gpu, const std::vector<State>& states, int k,
                               double tolerance) {
  PhysicalModel& model = *scene.model;
  const int n = model.dofCount(), m = static_cast<int>(model.elastic().elements().size());
  std::mt19937 rng(1234 + k);
  ModelGradient gCpu(m), gGpu(m);
  StepAdjoint aCpu, aGpu;
  aCpu.nextX = randomVector(n, rng);
  aCpu.nextV = randomVector(n, rng);
  aCpu.currentX = VecX::Zero(n);
  aCpu.currentV = VecX::Zero(n);
  aCpu.parameters = &gCpu;
  aGpu = aCpu;
  aGpu.parameters = &gGpu;
  NewmarkThetaIntegrator cpu(newmarkSettings());
  cpu.adjointStep(model, states[k + 1], states[k], nullptr, scene.dt, aCpu);
  gpu.adjointStep(model, states[k + 1], states[k], nullptr, scene.dt, aGpu);
  const std::string where = scene.name + " adjoint of step " + std::to_string(k);
  const double worst = std::max(
      {relativeDifference(aGpu.currentX, aCpu.currentX), relativeDifference(aGpu.currentV, aCpu.currentV),
       relativeDifference(gGpu.mu, gCpu.mu), relativeDifference(gGpu.lambda, gCpu.lambda),
       relativeDifference(gGpu.density, gCpu.density), relativeDifference(gGpu.alpha1, gCpu.alpha1),
       relativeDifference(gGpu.alpha2, gCpu.alpha2), relativeDifference3(gGpu.gravity, gCpu.gravity),
       model.ground ? relativeDifference3(gGpu.groundNormal, gCpu.groundNormal) : 0.0,
       model.ground ? relativeDifference(gGpu.groundOffset, gCpu.groundOffset) : 0.0});
  std::printf("%s: worst relative adjoint difference %.2e (|dL/dx_n| %.3e, dL/dalpha2 %.3e, dL/doffset %.3e)\n",
              where.c_str(), worst, aCpu.currentX.norm(), gCpu.alpha2, gCpu.groundOffset);
  EXPECT_LT(relativeDifference(aGpu.currentX, aCpu.currentX), tolerance) << where << " dL/dx_n";
  EXPECT_LT(relativeDifference(aGpu.currentV, aCpu.currentV), tolerance) << where << " dL/dv_n";
  EXPECT_LT(relativeDifference(gGpu.mu, gCpu.mu), tolerance) << where << " dL/dmu";
  EXPECT_LT(relativeDifference(gGpu.lambda, gCpu.lambda), tolerance) << where << " dL/dlambda";
  EXPECT_LT(relativeDifference(gGpu.density, gCpu.density), tolerance) << where << " dL/ddensity";
  EXPECT_LT(relativeDifference(gGpu.alpha1, gCpu.alpha1), tolerance) << where << " dL/dalpha1";
  EXPECT_LT(relativeDifference(gGpu.alpha2, gCpu.alpha2), tolerance) << where << " dL/dalpha2";
  EXPECT_LT(relativeDifference3(gGpu.gravity, gCpu.gravity), tolerance) << where << " dL/dgravity";
  if (model.ground) {
    EXPECT_LT(relativeDifference3(gGpu.groundNormal, gCpu.groundNormal), tolerance) << where << " dL/dnormal";
    EXPECT_LT(relativeDifference(gGpu.groundOffset, gCpu.groundOffset), tolerance) << where << " dL/doffset";
  }
}

// Number of contact points within `distance` of the ground over a trajectory (to check
// that a contact scene exercises the contact terms).
inline int contactsNear(const NewmarkScene& scene, const std::vector<State>& states, double distance) {
  int count = 0;
  for (const State& s : states)
    for (const ContactPoint& p : scene.model->ground->points()) count += scene.model->ground->distance(s.x, p) < distance;
  return count;
}

}  // namespace softfit::testing
