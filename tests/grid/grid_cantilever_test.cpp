// Cantilever on the cut-cell grid vs linear tets vs beam theory: 10:1:1 bar, linear
// material, nu = 0, clamped at x = 0 (Dirichlet box), gravity, static tip deflection.
// The grid bar is offset by h/2 in y and z so every long face cuts cells in half.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "forward/integrators/quasi_static_solver.h"
#include "forward/mesh/node_selection.h"
#include "forward/mesh/procedural_box.h"
#include "grid/cut_cell_grid.h"
#include "grid/sdf_primitives.h"
#include "support/box_model.h"

namespace softfit {
namespace {

constexpr double kLength = 10.0, kYoungs = 1e6, kDensity = 1.0, kGravity = 10.0, kPoisson = 0.0;

double eulerBernoulli() { return kDensity * kGravity * std::pow(kLength, 4) / (8.0 * kYoungs / 12.0); }
// Timoshenko: plus the shear deflection q L^2 / (2 kappa G A), kappa = 5/6, G = E / 2.
double timoshenko() { return eulerBernoulli() + kDensity * kGravity * kLength * kLength / (2.0 * (5.0 / 6.0) * kYoungs / 2.0); }

VecX staticSolution(PhysicalModel& model) {
  IntegratorSettings settings;
  settings.type = IntegratorType::QuasiStatic;
  QuasiStaticSolver solver(settings);
  return solver.solve(model, model.restPositions(), 0.0);
}

double tetTipDeflection(int n) {
  const TetMesh mesh = makeBoxMesh(Vec3(0, -0.5, -0.5), Vec3(kLength, 0.5, 0.5), 10 * n, n, n);
  auto model = testing::makeBoxModel(mesh, MaterialModel::Linear, kYoungs, kPoisson, kDensity);
  model->gravity = Vec3(0, -kGravity, 0);
  testing::clampNodesBelowX(*model, mesh, 1e-9);
  const VecX x = staticSolution(*model);
  const std::vector<int> tip = nodesInBox(mesh, Vec3(kLength - 1e-9, -1, -1), Vec3(kLength + 1, 1, 1));
  double sum = 0.0;
  for (int i : tip) sum += x[3 * i + 1] - mesh.vertices(i, 1);
  return -sum / tip.size();
}

struct GridResult {
  double deflection;
  int cells, cutCells, nodes;
  double inertiaError;  // relative error of the grid's second moment of area
};

GridResult gridTipDeflection(int n) {
  const double h = 1.0 / n, offset = 0.5 * h;
  const BoxSdf bar(Vec3(0.5 * kLength, offset, offset), Vec3(0.5 * kLength, 0.5, 0.5));
  LatticeOptions options;
  options.cellSize = h;
  const CutCellGrid grid(sampleSdfLattice(bar, options));
  std::vector<Element> elements = buildCutCellElements(grid);
  // Second moment of area about the bar's z axis from the quadrature.
  double V = 0, Sy = 0, Syy = 0;
  for (const Element& e : elements)
    for (const auto& q : e.quadrature) {
      double y = 0;
      for (int a = 0; a < 8; ++a) y += q.N[a] * grid.restPositions()[3 * e.nodes[a] + 1];
      V += q.weight;
      Sy += q.weight * y;
      Syy += q.weight * y * y;
    }
  const double inertia = (Syy - Sy * Sy / V) / kLength;
  const int m = static_cast<int>(elements.size());
  PhysicalModel model(grid.restPositions(), std::move(elements), MaterialModel::Linear,
                      std::vector<LameParameters>(m, lameFromYoungPoisson(kYoungs, kPoisson)), VecX::Constant(m, kDensity));
  model.gravity = Vec3(0, -kGravity, 0);
  DirichletGroup clamp;  // Dirichlet box x <= 0: the lattice plane at the bar's end
  for (int i = 0; i < grid.nodeCount(); ++i)
    if (grid.restPositions()[3 * i] <= 1e-9) clamp.nodes.push_back(i);
  model.dirichlet = DirichletBoundary({clamp}, model.restPositions());
  const VecX x = staticSolution(model);
  // Tip: mean vertical displacement of the trilinear field over 5 x 5 points of the end face.
  double sum = 0.0;
  int count = 0;
  for (int a = 0; a < 5; ++a)
    for (int b = 0; b < 5; ++b) {
      const auto p = grid.locate(Vec3(kLength, offset - 0.4 + 0.2 * a, offset - 0.4 + 0.2 * b));
      EXPECT_TRUE(p.has_value());
      for (int c = 0; c < 8; ++c) sum += p->weights[c] * (x[3 * p->nodes[c] + 1] - model.restPositions()[3 * p->nodes[c] + 1]);
      ++count;
    }
  return {-sum / count, grid.cellCount(), grid.partialCellCount(), grid.nodeCount(), inertia * 12.0 - 1.0};
}

TEST(GridCantilever, StaticTipDeflectionAgreesWithTetsAndBeamTheory) {
  const double eb = eulerBernoulli(), timo = timoshenko();
  std::printf("cantilever 10x1x1, E = 1e6, nu = 0, rho g = 10: Euler-Bernoulli %.6g, Timoshenko (shear) %.6g\n", eb, timo);
  const double tet = tetTipDeflection(12);
  std::printf("  tets n=12 (103680 tets): tip %.6g  vs EB %+.2f%%  vs Timoshenko %+.2f%%\n", tet, 100 * (tet / eb - 1),
              100 * (tet / timo - 1));
  double previous = 1e9, finest = 0.0;
  for (int n : {4, 8, 12}) {
    const GridResult g = gridTipDeflection(n);
    const double errorTimoshenko = std::abs(g.deflection / timo - 1);
    std::printf("  grid n=%-2d (%d cells, %d cut, %d nodes, area moment %+.2f%%): tip %.6g  vs EB %+.2f%%  vs Timoshenko "
                "%+.2f%%  vs tets n=12 %+.2f%%\n",
                n, g.cells, g.cutCells, g.nodes, 100 * g.inertiaError, g.deflection, 100 * (g.deflection / eb - 1),
                100 * (g.deflection / timo - 1), 100 * (g.deflection / tet - 1));
    EXPECT_LT(errorTimoshenko, previous) << "no convergence at n = " << n;
    previous = errorTimoshenko;
    finest = g.deflection;
  }
  EXPECT_NEAR(finest / eb, 1.0, 0.02);
  EXPECT_NEAR(finest / tet, 1.0, 0.03);
  EXPECT_NEAR(tet / eb, 1.0, 0.02);
}

}  // namespace
}  // namespace softfit
