#include "forward/energies/elastic_energy.h"

#include <gtest/gtest.h>

#include <Eigen/Geometry>

#include "forward/mesh/procedural_box.h"
#include "forward/mesh/tet_mesh.h"
#include "support/finite_difference.h"

namespace softfit {
namespace {

using testing::centralGradient;
using testing::relativeError;

struct Fixture {
  TetMesh mesh = makeBoxMesh(Vec3(0, 0, 0), Vec3(2, 1, 1), 2, 1, 1);
  VecX rest = mesh.restPositions();
};

ElasticEnergy makeEnergy(const TetMesh& mesh, MaterialModel model) {
  std::vector<LameParameters> lame;
  for (int t = 0; t < mesh.tetCount(); ++t) lame.push_back({1.0 + 0.1 * t, 2.0 + 0.05 * t});  // heterogeneous
  return ElasticEnergy(buildTetElements(mesh), model, lame);
}

VecX deformed(const VecX& rest, double amount, unsigned seed) { return testing::randomlyDeformed(rest, amount, seed); }

SparseMatrix assembledHessian(const ElasticEnergy& energy, const TetMesh& mesh, const VecX& x,
                              EigenvalueFilter filter = EigenvalueFilter::None) {
  std::vector<std::vector<int>> cliques;
  for (const auto& e : energy.elements()) cliques.push_back(e.nodes);
  BlockSparsePattern pattern(mesh.vertexCount(), cliques);
  SparseMatrix H = pattern.zeroMatrix();
  BlockAssembler assembler(pattern, H);
  energy.addHessian(x, assembler, filter, 0.0);
  return H;
}

class ElasticEnergyDerivatives : public ::testing::TestWithParam<MaterialModel> {};

TEST_P(ElasticEnergyDerivatives, GradientAndHessianMatchFiniteDifferences) {
  Fixture f;
  ElasticEnergy energy = makeEnergy(f.mesh, GetParam());
  const VecX x = deformed(f.rest, 0.3, 3);
  energy.updateRotations(deformed(f.rest, 0.2, 11));  // warped: rotations from another (lagged) state

  VecX g = VecX::Zero(x.size());
  energy.addGradient(x, g);
  const VecX gFd = centralGradient([&](const VecX& y) { return energy.energy(y); }, x, 1e-6);
  EXPECT_LT(relativeError(g, gFd), 1e-7) << materialModelName(GetParam());

  const MatX H = MatX(assembledHessian(energy, f.mesh, x));
  const MatX HFd = testing::centralGradientJacobian(energy, x, 1e-6);
  EXPECT_LT(relativeError(H, HFd), 1e-6) << materialModelName(GetParam());
  EXPECT_LT((H - H.transpose()).norm(), 1e-10 * H.norm());
}

TEST_P(ElasticEnergyDerivatives, FilteredHessianIsPositiveSemidefinite) {
  Fixture f;
  ElasticEnergy energy = makeEnergy(f.mesh, GetParam());
  const VecX x = deformed(f.rest, 0.8, 5);
  energy.updateRotations(x);
  const MatX H = MatX(assembledHessian(energy, f.mesh, x, EigenvalueFilter::Clamp));
  Eigen::SelfAdjointEigenSolver<MatX> eig(H);
  EXPECT_GT(eig.eigenvalues().minCoeff(), -1e-9 * eig.eigenvalues().cwiseAbs().maxCoeff());
}

class RotationInvariantEnergy : public ::testing::TestWithParam<MaterialModel> {};

TEST_P(RotationInvariantEnergy, RigidRotationHasNoElasticForce) {
  Fixture f;
  ElasticEnergy energy = makeEnergy(f.mesh, GetParam());
  const Mat3 Q = Eigen::AngleAxisd(M_PI / 2, Vec3(1, 2, 3).normalized()).toRotationMatrix();
  VecX x = f.rest;
  for (int i = 0; i < f.mesh.vertexCount(); ++i) x.segment<3>(3 * i) = Q * f.rest.segment<3>(3 * i) + Vec3(0.3, -1, 2);
  energy.updateRotations(x);  // warped corotation: R from the current (rotated) state
  VecX g = VecX::Zero(x.size());
  energy.addGradient(x, g);
  EXPECT_LT(g.cwiseAbs().maxCoeff(), 1e-12) << materialModelName(GetParam());
  EXPECT_LT(std::abs(energy.energy(x)), 1e-12) << materialModelName(GetParam());
}

INSTANTIATE_TEST_SUITE_P(AllMaterials, ElasticEnergyDerivatives,
                         ::testing::Values(MaterialModel::Linear, MaterialModel::WarpedCorotated,
                                           MaterialModel::Corotated, MaterialModel::NeoHookean,
                                           MaterialModel::StableNeoHookean, MaterialModel::StVK, MaterialModel::ARAP),
                         [](const auto& info) { return materialModelName(info.param); });

// Every model but plain linear elasticity (warped corotation included).
INSTANTIATE_TEST_SUITE_P(AllButLinear, RotationInvariantEnergy,
                         ::testing::Values(MaterialModel::WarpedCorotated, MaterialModel::Corotated,
                                           MaterialModel::NeoHookean, MaterialModel::StableNeoHookean,
                                           MaterialModel::StVK, MaterialModel::ARAP),
                         [](const auto& info) { return materialModelName(info.param); });

// The same tets with their one quadrature point split into two half-weight points: the
// general element path instead of the packed-tet one.
std::vector<Element> splitQuadrature(std::vector<Element> elements) {
  for (Element& el : elements) {
    QuadraturePoint half = el.quadrature.front();
    half.weight *= 0.5;
    el.quadrature = {half, half};
  }
  return elements;
}

struct ElementLoopResults {
  double energy = 0.0, fusedEnergy = 0.0;
  VecX gradient, fusedGradient;
  SparseMatrix hessian;
};

ElementLoopResults elementLoops(ElasticEnergy& energy, const TetMesh& mesh, const VecX& x, int threads) {
  energy.setThreads(threads);
  ElementLoopResults r;
  r.energy = energy.energy(x);
  r.gradient = VecX::Zero(x.size());
  energy.addGradient(x, r.gradient);
  r.fusedGradient = VecX::Zero(x.size());
  r.fusedEnergy = energy.energyAndAddGradient(x, r.fusedGradient);
  r.hessian = assembledHessian(energy, mesh, x, EigenvalueFilter::Clamp);
  return r;
}

// Element loops run in parallel but sum in element order: every thread count gives the
// same bits; the one-pass energy + gradient equals the separate calls bit for bit; the
// packed-tet path agrees with the general element path.
class ElementLoops : public ::testing::TestWithParam<MaterialModel> {};

TEST_P(ElementLoops, ThreadCountAndFusedPassDoNotChangeResults) {
  const TetMesh mesh = makeBoxMesh(Vec3(0, 0, 0), Vec3(4, 1, 1), 12, 3, 3);  // 972 tets: several threads
  const VecX x = deformed(mesh.restPositions(), 0.3, 5);
  std::vector<LameParameters> lame(mesh.tetCount(), {1.0, 2.0});
  ElasticEnergy packed(buildTetElements(mesh), GetParam(), lame);
  ElasticEnergy general(splitQuadrature(buildTetElements(mesh)), GetParam(), lame);
  packed.updateRotations(deformed(mesh.restPositions(), 0.2, 9));
  general.updateRotations(deformed(mesh.restPositions(), 0.2, 9));
  for (ElasticEnergy* energy : {&packed, &general}) {
    const ElementLoopResults one = elementLoops(*energy, mesh, x, 1);
    EXPECT_EQ(one.fusedEnergy, one.energy);
    EXPECT_EQ(one.fusedGradient, one.gradient);
    for (int threads : {2, 3, 0}) {
      const ElementLoopResults many = elementLoops(*energy, mesh, x, threads);
      EXPECT_EQ(many.energy, one.energy) << threads;
      EXPECT_EQ(many.gradient, one.gradient) << threads;
      EXPECT_EQ(many.fusedGradient, one.fusedGradient) << threads;
      EXPECT_EQ(MatX(many.hessian), MatX(one.hessian)) << threads;
    }
  }
  const ElementLoopResults a = elementLoops(packed, mesh, x, 1), b = elementLoops(general, mesh, x, 1);
  EXPECT_NEAR(a.energy, b.energy, 1e-13 * std::abs(a.energy));
  EXPECT_LT((a.gradient - b.gradient).norm(), 1e-13 * a.gradient.norm());
}

// Energy and gradient loops go parallel only on large models (tens of thousands of
// elements): there, too, every thread count gives the same bits.
TEST(ElementLoops, LargeModelEnergyAndGradientDoNotDependOnTheThreadCount) {
  const TetMesh mesh = makeBoxMesh(Vec3(0, 0, 0), Vec3(4, 1, 1), 44, 16, 16);  // 67,584 tets
  const VecX x = deformed(mesh.restPositions(), 0.3, 7);
  ElasticEnergy energy(buildTetElements(mesh), MaterialModel::NeoHookean,
                       std::vector<LameParameters>(mesh.tetCount(), {1.0, 2.0}));
  VecX g1 = VecX::Zero(x.size());
  energy.setThreads(1);
  const double e1 = energy.energyAndAddGradient(x, g1);
  for (int threads : {2, 3}) {
    energy.setThreads(threads);
    VecX g = VecX::Zero(x.size());
    EXPECT_EQ(energy.energyAndAddGradient(x, g), e1) << threads;
    EXPECT_EQ(g, g1) << threads;
    EXPECT_EQ(energy.energy(x), e1) << threads;
  }
}

INSTANTIATE_TEST_SUITE_P(Models, ElementLoops,
                         ::testing::Values(MaterialModel::Linear, MaterialModel::WarpedCorotated,
                                           MaterialModel::Corotated, MaterialModel::NeoHookean,
                                           MaterialModel::StableNeoHookean, MaterialModel::StVK,
                                           MaterialModel::ARAP));

TEST(ElasticEnergy, LinearMaterialIsNotRotationInvariant) {
  // Guards the test above: the same rotation does produce force without corotation.
  Fixture f;
  ElasticEnergy linear = makeEnergy(f.mesh, MaterialModel::Linear);
  const Mat3 Q = Eigen::AngleAxisd(M_PI / 2, Vec3::UnitZ()).toRotationMatrix();
  VecX x = f.rest;
  for (int i = 0; i < f.mesh.vertexCount(); ++i) x.segment<3>(3 * i) = Q * f.rest.segment<3>(3 * i);
  VecX g = VecX::Zero(x.size());
  linear.addGradient(x, g);
  EXPECT_GT(g.norm(), 0.1);
}

}  // namespace
}  // namespace softfit
