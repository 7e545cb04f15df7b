#include "forward/energies/elastic_energy.h"

#include <gtest/gtest.h>

#include <Eigen/Geometry>

#include "forward/mesh/procedural_box.h"
#include "forward/mesh/tet_mesh.h"
#include "support/finite_difference.h"

namespace softfit {
namespace {

using testing::centralGradient;
using testing::centralJacobian;
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

VecX deformed(const VecX& rest, double amount, unsigned seed) {
  std::srand(seed);
  const Mat3 A = Mat3::Identity() + amount * Mat3::Random();
  VecX x = rest;
  for (int i = 0; i < x.size() / 3; ++i) x.segment<3>(3 * i) = A * rest.segment<3>(3 * i);
  return x + 0.05 * VecX::Random(x.size());
}

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
  const MatX HFd = centralJacobian(
      [&](const VecX& y) {
        VecX gy = VecX::Zero(y.size());
        energy.addGradient(y, gy);
        return gy;
      },
      x, 1e-6);
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
