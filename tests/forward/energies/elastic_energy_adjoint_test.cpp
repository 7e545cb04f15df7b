// Finite-difference checks of the adjoint-side derivatives of ElasticEnergy.
#include <gtest/gtest.h>

#include "support/elastic_adjoint_scene.h"
#include "forward/energies/elastic_energy.h"
#include "support/finite_difference.h"

namespace softfit {
namespace {

using testing::AdjointScene;
using testing::centralGradient;
using testing::relativeError;

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
