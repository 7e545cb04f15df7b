// Derivatives on a small cut grid: elastic gradient / Hessian (every material) and the
// ground contact at edge crossings vs central finite differences; lumped mass and
// gravity from the cut-cell quadrature.
#include <gtest/gtest.h>

#include <functional>
#include <random>
#include <vector>

#include "forward/energies/physical_model.h"
#include "grid/cut_cell_grid.h"
#include "grid/grid_contact_points.h"
#include "grid/sdf_primitives.h"
#include "support/finite_difference.h"

namespace softfit {
namespace {

struct SmallGrid {
  std::shared_ptr<CutCellGrid> grid;
  std::unique_ptr<PhysicalModel> model;
  explicit SmallGrid(MaterialModel material) {
    const TorusSdf torus(Vec3(0.013, 0.3, -0.021), Vec3(0.3, 1.0, 0.2), 0.25, 0.11);
    LatticeOptions options;
    options.cellSize = 0.1;
    grid = std::make_shared<CutCellGrid>(sampleSdfLattice(torus, options));
    std::vector<Element> elements = buildCutCellElements(*grid);
    const int m = static_cast<int>(elements.size());
    model = std::make_unique<PhysicalModel>(grid->restPositions(), std::move(elements), material,
                                            std::vector<LameParameters>(m, lameFromYoungPoisson(1e4, 0.35)),
                                            VecX::Constant(m, 50.0));
  }
  VecX perturbed(double scale, unsigned seed) const {
    std::mt19937 rng(seed);
    std::normal_distribution<double> noise(0.0, scale);
    VecX x = grid->restPositions();
    // A rotation and stretch plus noise, so nonlinear materials are off their rest state.
    const Mat3 A = (Mat3() << 1.05, 0.1, 0.0, -0.08, 0.97, 0.05, 0.02, 0.0, 1.1).finished();
    for (int i = 0; i < grid->nodeCount(); ++i) x.segment<3>(3 * i) = A * x.segment<3>(3 * i);
    for (int i = 0; i < x.size(); ++i) x[i] += noise(rng);
    return x;
  }
};

SparseMatrix assembledHessian(const PhysicalModel& model, const VecX& x, bool elasticOnly) {
  SparseMatrix H = model.pattern().zeroMatrix();
  BlockAssembler assembler(model.pattern(), H);
  assembler.setZero();
  if (elasticOnly) model.elastic().addHessian(x, assembler);
  else model.addPotentialHessian(x, assembler, EigenvalueFilter::None, 0.0);
  return H;
}

// `count` random unit directions of dimension n (deterministic for a seed).
std::vector<VecX> randomUnitDirections(Eigen::Index n, int count, unsigned seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<double> normal;
  std::vector<VecX> directions;
  for (int k = 0; k < count; ++k) {
    VecX d(n);
    for (Eigen::Index i = 0; i < n; ++i) d[i] = normal(rng);
    directions.push_back(d.normalized());
  }
  return directions;
}

// max over random unit directions d of |g.d - (E(x + e d) - E(x - e d)) / 2e| / |g|.
double directionalGradientError(const VecX& g, const std::function<double(const VecX&)>& energy, const VecX& x,
                                int directions) {
  double worst = 0.0;
  for (const VecX& d : randomUnitDirections(x.size(), directions, 29)) {
    const double e = 1e-6;
    const double fd = (energy(x + e * d) - energy(x - e * d)) / (2 * e);
    worst = std::max(worst, std::abs(g.dot(d) - fd) / g.norm());
  }
  return worst;
}

// max over random unit directions d of |H d - (g(x + e d) - g(x - e d)) / 2e| / |H d|.
double directionalHessianError(const SparseMatrix& H, const std::function<VecX(const VecX&)>& gradient, const VecX& x,
                               int directions) {
  double worst = 0.0;
  for (const VecX& d : randomUnitDirections(x.size(), directions, 13)) {
    const double e = 1e-6;
    const VecX fd = (gradient(x + e * d) - gradient(x - e * d)) / (2 * e);
    const VecX Hd = H * d;
    worst = std::max(worst, (Hd - fd).norm() / Hd.norm());
  }
  return worst;
}

TEST(GridDerivatives, ElasticGradientAndHessianMatchFiniteDifferences) {
  for (const MaterialModel material : {MaterialModel::Linear, MaterialModel::Corotated, MaterialModel::NeoHookean,
                                       MaterialModel::StableNeoHookean, MaterialModel::StVK, MaterialModel::ARAP,
                                       MaterialModel::WarpedCorotated}) {
    SmallGrid g(material);
    const VecX x = g.perturbed(0.01, 3);
    if (material == MaterialModel::WarpedCorotated) g.model->elastic().updateRotations(g.perturbed(0.02, 9));
    const ElasticEnergy& E = g.model->elastic();
    VecX gradient = VecX::Zero(x.size());
    E.addGradient(x, gradient);
    const double gradientError = directionalGradientError(gradient, [&](const VecX& y) { return E.energy(y); }, x, 12);
    const double hessianError = directionalHessianError(
        assembledHessian(*g.model, x, true),
        [&](const VecX& y) {
          VecX gy = VecX::Zero(y.size());
          E.addGradient(y, gy);
          return gy;
        },
        x, 6);
    std::printf("%-18s grid %d nodes %d cells (%d cut): gradient (12 directions) rel. error %.2e, Hessian (6 directions) rel. error %.2e\n",
                materialModelName(material).c_str(), g.grid->nodeCount(), g.grid->cellCount(),
                g.grid->partialCellCount(), gradientError, hessianError);
    EXPECT_LT(gradientError, 1e-6) << materialModelName(material);
    EXPECT_LT(hessianError, 1e-6) << materialModelName(material);
  }
}

TEST(GridDerivatives, EdgeCrossingGroundContactMatchesFiniteDifferences) {
  SmallGrid g(MaterialModel::NeoHookean);
  GroundPlane plane;
  plane.normal = Vec3(0.1, 1.0, -0.05).normalized();
  plane.offset = -0.25;  // the plane cuts the torus: points on both sides
  plane.stiffness = 1e6;  // per unit area (the points carry their areas)
  plane.sharpness = 30.0;
  const std::vector<ContactPoint> points = edgeCrossingContactPoints(*g.grid);
  ASSERT_GT(points.size(), 50u);
  int twoNode = 0;
  for (const auto& p : points) twoNode += p.nodes.size() == 2;
  EXPECT_GT(twoNode, 0);
  g.model->ground = GroundContact(plane, points);
  g.model->gravity = Vec3(0, -9.81, 0);
  const VecX x = g.perturbed(0.005, 5);
  VecX gradient = VecX::Zero(x.size());
  g.model->addPotentialGradient(x, gradient);
  EXPECT_LT(directionalGradientError(gradient, [&](const VecX& y) { return g.model->potentialEnergy(y); }, x, 12), 1e-6);
  const double hessianError = directionalHessianError(
      assembledHessian(*g.model, x, false),
      [&](const VecX& y) {
        VecX gy = VecX::Zero(y.size());
        g.model->addPotentialGradient(y, gy);
        return gy;
      },
      x, 6);
  EXPECT_LT(hessianError, 1e-6);
  // Contact alone (energy and force of the springs at the crossings).
  const GroundContact& ground = *g.model->ground;
  VecX contactGradient = VecX::Zero(x.size());
  ground.addGradient(x, contactGradient);
  const VecX fdContact = testing::centralGradient([&](const VecX& y) { return ground.energy(y); }, x, 1e-7);
  std::printf("edge-crossing contact: %zu points (%d on edges), gradient rel. error %.2e\n", points.size(), twoNode,
              testing::relativeError(contactGradient, fdContact));
  EXPECT_LT(testing::relativeError(contactGradient, fdContact), 1e-6);
  EXPECT_GT(ground.maxPenetration(x), 0.0);
}

TEST(GridDerivatives, MassAndGravityComeFromTheInsideVolume) {
  SmallGrid g(MaterialModel::Linear);
  // The inside volume plus the volume-fraction floor's material in nearly empty cut
  // cells (at most minCellFraction h^3 per partial cell): mass and gravity alike.
  double volume = 0.0;
  for (const Element& e : g.model->elastic().elements()) volume += e.restVolume();
  const double added = volume - g.grid->insideVolume();
  EXPECT_GT(added, 0.0);
  EXPECT_LE(added, CutCellQuadratureOptions::kDefaultMinCellFraction * 1e-3 * g.grid->partialCellCount());
  EXPECT_NEAR(g.model->totalMass(), 50.0 * volume, 1e-12);
  g.model->gravity = Vec3(0, -10, 0);
  VecX gradient = VecX::Zero(g.model->dofCount());
  g.model->addPotentialGradient(g.model->restPositions(), gradient);  // no elastic force at rest
  Vec3 total = Vec3::Zero();
  for (int i = 0; i < g.model->nodeCount(); ++i) total -= gradient.segment<3>(3 * i);
  EXPECT_LT((total - Vec3(0, -10 * 50.0 * volume, 0)).norm(), 1e-10);
}

}  // namespace
}  // namespace softfit
