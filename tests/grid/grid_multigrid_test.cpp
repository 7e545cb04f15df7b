// The NewmarkTheta integrator's multigrid preconditioner on grid models: the same
// trajectories and adjoints as with the Cholesky preconditioner (PCG solves both to the
// same tolerance), bit-identical reruns, and the fallback without lattice coordinates.
#include <gtest/gtest.h>

#include "forward/integrators/newmark_theta_integrator.h"
#include "forward/integrators/simulator.h"
#include "forward/registry/integrator_registry.h"
#include "grid/cut_cell_grid.h"
#include "grid/grid_contact_points.h"
#include "grid/sdf_primitives.h"

namespace softfit {
namespace {

// A small warped-corotated cuboid (~1900 nodes: a 2-level hierarchy), either clamped at
// its bottom or dropped onto the ground (contact from the second step on).
std::unique_ptr<PhysicalModel> cuboid(bool collision, std::shared_ptr<CutCellGrid>& grid) {
  const BoxSdf box(Vec3(0.0, 0.45, 0.0), Vec3(0.61, 0.4, 0.41));
  LatticeOptions options;
  options.cellSize = 0.08;
  grid = std::make_shared<CutCellGrid>(sampleSdfLattice(box, options));
  std::vector<Element> elements = buildCutCellElements(*grid);
  const int m = static_cast<int>(elements.size());
  auto model = std::make_unique<PhysicalModel>(grid->restPositions(), std::move(elements),
                                               MaterialModel::WarpedCorotated,
                                               std::vector<LameParameters>(m, lameFromYoungPoisson(5e4, 0.3)),
                                               VecX::Constant(m, 100.0));
  model->gravity = Vec3(0, -10, 0);
  model->damping = {0.1, 0.001};
  model->nodeLattice = grid->nodeLatticeCoordinates();
  if (collision) {
    GroundPlane plane;
    plane.stiffness = 1e7;  // per unit area (the points carry their areas)
    plane.sharpness = 100;
    model->ground = GroundContact(plane, edgeCrossingContactPoints(*grid));
  } else {
    DirichletGroup bottom;
    for (int i = 0; i < grid->nodeCount(); ++i)
      if (grid->restPositions()[3 * i + 1] < 0.1) bottom.nodes.push_back(i);
    model->dirichlet = DirichletBoundary({bottom}, model->restPositions());
  }
  return model;
}

State initialState(const PhysicalModel& model, bool collision) {
  State s = restState(model);
  if (collision)
    for (int i = 0; i < model.nodeCount(); ++i) s.v[3 * i + 1] = -3.0;
  else
    for (int i = 0; i < model.nodeCount(); ++i) s.v[3 * i] = 0.5 * (model.restPositions()[3 * i + 1] - 0.05);
  return s;
}

struct SimulatedRun {
  std::vector<State> states;
  int maxIterations = 0;
  bool multigrid = false;
  int levels = 0;
};

SimulatedRun simulate(PhysicalModel& model, bool collision, PcgPreconditioner preconditioner, int steps) {
  IntegratorSettings settings;
  settings.type = IntegratorType::NewmarkTheta;
  settings.preconditioner = preconditioner;
  NewmarkThetaIntegrator integrator(settings);
  SimulatedRun run;
  run.multigrid = integrator.usesMultigrid(model);
  run.states.push_back(initialState(model, collision));
  for (int s = 0; s < steps; ++s) {
    run.states.push_back(integrator.step(model, run.states.back(), nullptr, 0.01));
    run.maxIterations = std::max(run.maxIterations, integrator.lastStep().iterations);
  }
  if (integrator.multigrid()) run.levels = integrator.multigrid()->levelCount();
  return run;
}

double maxDifference(const std::vector<State>& a, const std::vector<State>& b) {
  double d = 0.0;
  for (size_t s = 0; s < a.size(); ++s) d = std::max(d, (a[s].x - b[s].x).cwiseAbs().maxCoeff());
  return d;
}

TEST(GridMultigrid, TrajectoriesMatchTheCholeskyPreconditionedOnes) {
  for (bool collision : {false, true}) {
    SCOPED_TRACE(collision ? "collision" : "dirichlet");
    std::shared_ptr<CutCellGrid> grid;
    auto model = cuboid(collision, grid);
    const SimulatedRun cholesky = simulate(*model, collision, PcgPreconditioner::Cholesky, 12);
    const SimulatedRun multigrid = simulate(*model, collision, PcgPreconditioner::Auto, 12);
    EXPECT_FALSE(cholesky.multigrid);
    EXPECT_TRUE(multigrid.multigrid);
    EXPECT_GE(multigrid.levels, 2);
    EXPECT_LT(multigrid.maxIterations, 30);
    double motion = 0.0;
    for (const State& s : cholesky.states) motion = std::max(motion, (s.x - model->restPositions()).cwiseAbs().maxCoeff());
    EXPECT_GT(motion, 1e-3);
    EXPECT_LT(maxDifference(multigrid.states, cholesky.states), 1e-8 * motion);
    if (collision) {  // it did touch the ground
      double gap = 1e9;
      for (const State& s : cholesky.states)
        for (const ContactPoint& p : model->ground->points()) gap = std::min(gap, model->ground->distance(s.x, p));
      EXPECT_LT(gap, 0.02);
    }
  }
}

TEST(GridMultigrid, RerunsAreBitIdentical) {
  std::shared_ptr<CutCellGrid> grid;
  auto model = cuboid(true, grid);
  const SimulatedRun a = simulate(*model, true, PcgPreconditioner::Multigrid, 6);
  const SimulatedRun b = simulate(*model, true, PcgPreconditioner::Multigrid, 6);
  for (size_t s = 0; s < a.states.size(); ++s) {
    EXPECT_EQ(a.states[s].x, b.states[s].x);
    EXPECT_EQ(a.states[s].v, b.states[s].v);
  }
}

TEST(GridMultigrid, FallsBackToCholeskyWithoutLatticeCoordinates) {
  std::shared_ptr<CutCellGrid> grid;
  auto model = cuboid(false, grid);
  model->nodeLattice.clear();
  IntegratorSettings settings;
  settings.type = IntegratorType::NewmarkTheta;
  settings.preconditioner = PcgPreconditioner::Multigrid;
  NewmarkThetaIntegrator integrator(settings);
  EXPECT_FALSE(integrator.usesMultigrid(*model));
  integrator.step(*model, initialState(*model, false), nullptr, 0.01);
  EXPECT_EQ(integrator.multigrid(), nullptr);
}

TEST(GridMultigrid, AdjointStepMatchesTheCholeskyPath) {
  std::shared_ptr<CutCellGrid> grid;
  auto model = cuboid(true, grid);
  const SimulatedRun forward = simulate(*model, true, PcgPreconditioner::Cholesky, 3);
  const int n = model->dofCount();
  auto adjoint = [&](PcgPreconditioner preconditioner) {
    IntegratorSettings settings;
    settings.type = IntegratorType::NewmarkTheta;
    settings.preconditioner = preconditioner;
    NewmarkThetaIntegrator integrator(settings);
    ModelGradient gradient(static_cast<int>(model->elastic().elements().size()));
    StepAdjoint adj;
    adj.nextX = VecX::Zero(n);
    adj.nextV = VecX::Zero(n);
    for (int i = 0; i < model->nodeCount(); ++i) adj.nextX[3 * i + 1] = 1.0 + 0.001 * i;
    adj.currentX = adj.currentV = VecX::Zero(n);
    adj.parameters = &gradient;
    for (int s = static_cast<int>(forward.states.size()) - 1; s > 0; --s) {
      integrator.adjointStep(*model, forward.states[s], forward.states[s - 1], nullptr, 0.01, adj);
      adj.nextX = adj.currentX;
      adj.nextV = adj.currentV;
      adj.currentX = adj.currentV = VecX::Zero(n);
    }
    return std::make_pair(adj.nextX, gradient.mu);
  };
  const auto [xC, muC] = adjoint(PcgPreconditioner::Cholesky);
  const auto [xM, muM] = adjoint(PcgPreconditioner::Multigrid);
  EXPECT_LT((xM - xC).norm(), 1e-8 * xC.norm());
  EXPECT_LT((muM - muC).norm(), 1e-8 * muC.norm());
}

}  // namespace
}  // namespace softfit
