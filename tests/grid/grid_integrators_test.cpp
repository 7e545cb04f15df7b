// Every material, integrator and solver of the tet path runs unchanged on a cut-cell
// grid: a torus dropped on the ground, and a clamped quasi-static grid.
#include <gtest/gtest.h>

#include <cstdio>

#include "forward/integrators/simulator.h"
#include "forward/registry/integrator_registry.h"
#include "grid/cut_cell_grid.h"
#include "grid/grid_contact_points.h"
#include "grid/sdf_primitives.h"

namespace softfit {
namespace {

std::unique_ptr<PhysicalModel> droppedTorus(MaterialModel material, std::shared_ptr<CutCellGrid>& grid) {
  const TorusSdf torus(Vec3(0.0, 0.2, 0.0), Vec3(0.4, 1.0, 0.1), 0.2, 0.08);
  LatticeOptions options;
  options.cellSize = 0.07;
  grid = std::make_shared<CutCellGrid>(sampleSdfLattice(torus, options));
  std::vector<Element> elements = buildCutCellElements(*grid);
  const int m = static_cast<int>(elements.size());
  auto model = std::make_unique<PhysicalModel>(grid->restPositions(), std::move(elements), material,
                                               std::vector<LameParameters>(m, lameFromYoungPoisson(2e4, 0.3)),
                                               VecX::Constant(m, 100.0));
  model->gravity = Vec3(0, -10, 0);
  model->damping = {0.1, 0.001};
  GroundPlane plane;
  plane.sharpness = 100;
  std::vector<ContactPoint> points = edgeCrossingContactPoints(*grid);
  // Per unit area (the points carry their areas): the same total as 1e4 per point.
  double area = 0.0;
  for (const ContactPoint& p : points) area += p.area;
  plane.stiffness = 1e4 * static_cast<double>(points.size()) / area;
  model->ground = GroundContact(plane, std::move(points));
  return model;
}

struct Case {
  IntegratorType integrator;
  MaterialModel material;
};

TEST(GridIntegrators, EveryIntegratorAndMaterialRunsOnTheGrid) {
  // Every material and every time integrator at least once.
  const Case cases[] = {
      {IntegratorType::BackwardEuler, MaterialModel::StableNeoHookean},
      {IntegratorType::BackwardEuler, MaterialModel::ARAP},
      {IntegratorType::BDF2, MaterialModel::NeoHookean},
      {IntegratorType::ImplicitMidpoint, MaterialModel::Corotated},
      {IntegratorType::NewmarkTrapezoid, MaterialModel::StVK},
      {IntegratorType::NewmarkTheta, MaterialModel::WarpedCorotated},
      {IntegratorType::NewmarkTheta, MaterialModel::Linear},
  };
  for (const Case& c : cases) {
    std::shared_ptr<CutCellGrid> grid;
    auto model = droppedTorus(c.material, grid);
    State initial = restState(*model);
    initial.v = VecX::Constant(initial.v.size(), 0.0);
    for (int i = 0; i < model->nodeCount(); ++i) initial.v[3 * i + 1] = -2.0;
    IntegratorSettings settings;
    settings.type = c.integrator;
    Simulator sim(*model, makeIntegrator(settings), 0.005);
    const std::vector<State> states = sim.run(initial, 20, true).states;
    const State& last = states.back();
    const std::string name = integratorTypeName(c.integrator) + " / " + materialModelName(c.material);
    ASSERT_TRUE(last.x.allFinite()) << name;
    // It reaches the ground (lowest point ~0.045 above it, falling at 2 m/s), does not
    // sink in, and gains no energy.
    auto centerHeight = [&](const VecX& x) {
      double y = 0.0;
      for (int i = 0; i < model->nodeCount(); ++i) y += model->mass()[3 * i] * x[3 * i + 1];
      return y / model->totalMass();
    };
    auto energy = [&](const State& s) { return model->kineticEnergy(s.v) + model->potentialEnergy(s.x); };
    double lowest = 1e9, deepest = 0.0, closest = 1e9;
    for (const State& s : states) {
      lowest = std::min(lowest, centerHeight(s.x));
      deepest = std::max(deepest, model->ground->maxPenetration(s.x));
      for (const ContactPoint& p : model->ground->points()) closest = std::min(closest, model->ground->distance(s.x, p));
    }
    std::printf("%-38s %d nodes: centre of mass %.4f -> lowest %.4f -> %.4f, closest contact point %.4f, deepest "
                "penetration %.4f\n",
                name.c_str(), model->nodeCount(), centerHeight(initial.x), lowest, centerHeight(last.x), closest, deepest);
    EXPECT_LT(lowest, centerHeight(initial.x) - 0.03) << name;
    EXPECT_LT(deepest, 0.03) << name;
    // It touched the ground (within a few 1/sharpness of the softmin barrier) and bounced.
    EXPECT_LT(closest, 3.0 / model->ground->plane().sharpness) << name;
    EXPECT_GT(centerHeight(last.x), lowest + 0.005) << name;
    if (c.material != MaterialModel::WarpedCorotated) {  // (its energy depends on the frozen frames)
      EXPECT_LT(energy(last), energy(initial) * 1.02) << name;
    }
  }
}

TEST(GridIntegrators, QuasiStaticSagOfAClampedGridIsSymmetric) {
  // A capsule clamped at both ends sags symmetrically under gravity.
  const CapsuleSdf capsule(Vec3(-0.5, 0.013, 0.021), Vec3(0.5, 0.013, 0.021), 0.15);
  LatticeOptions options;
  options.cellSize = 0.05;
  const CutCellGrid grid(sampleSdfLattice(capsule, options));
  std::vector<Element> elements = buildCutCellElements(grid);
  const int m = static_cast<int>(elements.size());
  PhysicalModel model(grid.restPositions(), std::move(elements), MaterialModel::StableNeoHookean,
                      std::vector<LameParameters>(m, lameFromYoungPoisson(1e5, 0.3)), VecX::Constant(m, 100.0));
  model.gravity = Vec3(0, -10, 0);
  DirichletGroup ends;
  for (int i = 0; i < grid.nodeCount(); ++i)
    if (std::abs(grid.restPositions()[3 * i]) >= 0.55) ends.nodes.push_back(i);
  model.dirichlet = DirichletBoundary({ends}, model.restPositions());
  IntegratorSettings settings;
  settings.type = IntegratorType::QuasiStatic;
  Simulator sim(model, makeIntegrator(settings), 1.0);
  const State last = sim.run(restState(model), 1, false).states.back();
  auto sag = [&](double x) {
    const auto p = grid.locate(Vec3(x, 0.013, 0.021));
    double d = 0;
    for (int c = 0; c < 8; ++c) d += p->weights[c] * (last.x[3 * p->nodes[c] + 1] - model.restPositions()[3 * p->nodes[c] + 1]);
    return d;
  };
  EXPECT_LT(sag(0.0), 0.0);
  EXPECT_LT(sag(0.0), sag(0.3));
  EXPECT_NEAR(sag(-0.3), sag(0.3), 0.02 * std::abs(sag(0.0)));
}

}  // namespace
}  // namespace softfit
