// Finite-difference checks of the Rayleigh damping stiffness' adjoints (rayleigh_damping.cpp).
#include <gtest/gtest.h>

#include "support/elastic_adjoint_scene.h"
#include "forward/energies/elastic_energy.h"
#include "support/finite_difference.h"

namespace softfit {
namespace {

using testing::AdjointScene;
using testing::centralGradient;

class RayleighDamping : public ::testing::TestWithParam<MaterialModel> {};

TEST_P(RayleighDamping, DampingStiffnessDerivativesMatchFiniteDifferences) {
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

INSTANTIATE_TEST_SUITE_P(Materials, RayleighDamping,
                         ::testing::Values(MaterialModel::Linear, MaterialModel::WarpedCorotated,
                                           MaterialModel::Corotated, MaterialModel::NeoHookean,
                                           MaterialModel::StableNeoHookean),
                         [](const auto& info) { return materialModelName(info.param); });

}  // namespace
}  // namespace softfit
