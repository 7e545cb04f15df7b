// Finite-difference checks of the adjoint-side derivatives of ElasticEnergy.
#include <gtest/gtest.h>

#include <Eigen/Geometry>

#include "forward/energies/elastic_energy.h"
#include "forward/mesh/procedural_box.h"
#include "forward/mesh/tet_mesh.h"
#include "support/finite_difference.h"

namespace softfit {
namespace {

using testing::centralGradient;
using testing::relativeError;

struct AdjointScene {
  TetMesh mesh = makeBoxMesh(Vec3(0, 0, 0), Vec3(2, 1, 1), 2, 1, 1);
  VecX rest = mesh.restPositions();
  std::vector<LameParameters> lame;
  VecX x, xFrame, lambda;
  AdjointScene() {
    for (int t = 0; t < mesh.tetCount(); ++t) lame.push_back({1.0 + 0.1 * t, 2.0 + 0.05 * t});
    std::srand(17);
    const Mat3 Q = Eigen::AngleAxisd(0.7, Vec3(1, 2, 0.5).normalized()).toRotationMatrix();
    xFrame = rest;
    for (int i = 0; i < mesh.vertexCount(); ++i) xFrame.segment<3>(3 * i) = Q * rest.segment<3>(3 * i);
    xFrame += 0.08 * VecX::Random(rest.size());
    x = xFrame + 0.05 * VecX::Random(rest.size());
    lambda = VecX::Random(rest.size());
  }
  ElasticEnergy energy(MaterialModel model, const std::vector<LameParameters>& p) const {
    return ElasticEnergy(buildTetElements(mesh), model, p);
  }
};

class ElasticAdjoint : public ::testing::TestWithParam<MaterialModel> {};

TEST_P(ElasticAdjoint, ParameterDerivativesMatchFiniteDifferences) {
  AdjointScene s;
  const int m = s.mesh.tetCount();
  auto projected = [&](const std::vector<LameParameters>& p) {
    ElasticEnergy energy = s.energy(GetParam(), p);
    energy.updateRotations(s.xFrame);
    VecX g = VecX::Zero(s.x.size());
    energy.addGradient(s.x, g);
    return s.lambda.dot(g);
  };
  ElasticEnergy energy = s.energy(GetParam(), s.lame);
  energy.updateRotations(s.xFrame);
  VecX muBar = VecX::Zero(m), laBar = VecX::Zero(m);
  energy.addParameterAdjoint(s.x, s.lambda, 2.0, muBar, laBar);
  for (int e : {0, m / 2, m - 1}) {
    for (int which = 0; which < 2; ++which) {
      const double h = 1e-6;
      auto p = s.lame, q = s.lame;
      (which == 0 ? p[e].mu : p[e].lambda) += h;
      (which == 0 ? q[e].mu : q[e].lambda) -= h;
      const double fd = 2.0 * (projected(p) - projected(q)) / (2 * h);
      const double adj = which == 0 ? muBar[e] : laBar[e];
      EXPECT_NEAR(adj, fd, 1e-7 * std::max(1.0, std::abs(fd))) << materialModelName(GetParam()) << " e=" << e;
    }
  }
}

TEST_P(ElasticAdjoint, DampingStiffnessDerivativesMatchFiniteDifferences) {
  AdjointScene s;
  const int m = s.mesh.tetCount();
  const VecX d = VecX::Random(s.x.size());
  auto product = [&](const VecX& xFrame, const std::vector<LameParameters>& p) {
    ElasticEnergy energy = s.energy(GetParam(), p);
    std::vector<std::vector<int>> cliques;
    for (const auto& el : energy.elements()) cliques.push_back(el.nodes);
    BlockSparsePattern pattern(s.mesh.vertexCount(), cliques);
    SparseMatrix K = pattern.zeroMatrix();
    BlockAssembler assembler(pattern, K);
    energy.addDampingStiffness(energy.dampingFrames(xFrame), assembler);
    return s.lambda.dot(K * d);
  };
  ElasticEnergy energy = s.energy(GetParam(), s.lame);
  VecX frameBar = VecX::Zero(s.x.size());
  energy.addDampingRotationAdjoint(d, s.lambda, s.xFrame, 1.0, frameBar);
  const VecX fd = centralGradient([&](const VecX& y) { return product(y, s.lame); }, s.xFrame, 1e-6);
  if (GetParam() == MaterialModel::Linear) EXPECT_EQ(fd.norm(), 0.0);
  else EXPECT_GT(fd.norm(), 1e-3);
  EXPECT_LT((frameBar - fd).norm(), 1e-6 * std::max(1.0, fd.norm())) << materialModelName(GetParam());

  VecX muBar = VecX::Zero(m), laBar = VecX::Zero(m);
  energy.addDampingParameterAdjoint(energy.dampingFrames(s.xFrame), d, s.lambda, 1.0, muBar, laBar);
  const int e = m / 3;
  auto p = s.lame, q = s.lame;
  p[e].mu += 1e-6;
  q[e].mu -= 1e-6;
  EXPECT_NEAR(muBar[e], (product(s.xFrame, p) - product(s.xFrame, q)) / 2e-6, 1e-6);
  p = s.lame, q = s.lame;
  p[e].lambda += 1e-6;
  q[e].lambda -= 1e-6;
  EXPECT_NEAR(laBar[e], (product(s.xFrame, p) - product(s.xFrame, q)) / 2e-6, 1e-6);
}

INSTANTIATE_TEST_SUITE_P(Materials, ElasticAdjoint,
                         ::testing::Values(MaterialModel::Linear, MaterialModel::WarpedCorotated,
                                           MaterialModel::Corotated, MaterialModel::NeoHookean,
                                           MaterialModel::StableNeoHookean),
                         [](const auto& info) { return materialModelName(info.param); });

TEST(ElasticAdjoint, WarpedRotationDerivativeMatchesFiniteDifferences) {
  AdjointScene s;
  ElasticEnergy energy = s.energy(MaterialModel::WarpedCorotated, s.lame);
  auto projected = [&](const VecX& xFrame) {
    ElasticEnergy e = s.energy(MaterialModel::WarpedCorotated, s.lame);
    e.updateRotations(xFrame);
    VecX g = VecX::Zero(s.x.size());
    e.addGradient(s.x, g);
    return s.lambda.dot(g);
  };
  energy.updateRotations(s.xFrame);
  VecX frameBar = VecX::Zero(s.x.size());
  energy.addRotationAdjoint(s.x, s.lambda, s.xFrame, 1.0, frameBar);
  const VecX fd = centralGradient(projected, s.xFrame, 1e-6);
  EXPECT_GT(fd.norm(), 1e-3);
  EXPECT_LT((frameBar - fd).norm(), 1e-6 * fd.norm());
}

}  // namespace
}  // namespace softfit
