#include "forward/energies/rotated_stiffness_gather.h"

#include <gtest/gtest.h>

#include "forward/energies/elastic_energy.h"
#include "support/finite_difference.h"

namespace softfit {
namespace {

using testing::centralGradient;
using testing::relativeError;

// Two unit hex cells side by side (12 nodes), trilinear, each with 2x2x2 Gauss points; the
// second cell's weights are scaled per point (a "cut" cell), so its rest stiffness
// differs from the first's; a third, identical to the first, shares its matrix.
struct HexModel {
  VecX rest;
  std::vector<Element> elements;
};

Element hexCell(const std::vector<int>& nodes, const VecX& rest, const std::vector<double>& scale) {
  Element el;
  el.nodes = nodes;
  const Vec3 origin = rest.segment<3>(3 * nodes[0]);
  const double g = 0.5 / std::sqrt(3.0);
  int k = 0;
  for (double pz : {0.5 - g, 0.5 + g})
    for (double py : {0.5 - g, 0.5 + g})
      for (double px : {0.5 - g, 0.5 + g}) {
        QuadraturePoint q;
        q.weight = 0.125 * scale[k++];
        q.N.resize(8);
        q.dNdX.resize(8, 3);
        for (int a = 0; a < 8; ++a) {
          const Vec3 corner = rest.segment<3>(3 * nodes[a]) - origin;  // 0 / 1 per axis
          const Vec3 p(px, py, pz);
          Vec3 f, df;
          for (int j = 0; j < 3; ++j) {
            f[j] = corner[j] > 0.5 ? p[j] : 1.0 - p[j];
            df[j] = corner[j] > 0.5 ? 1.0 : -1.0;
          }
          q.N[a] = f[0] * f[1] * f[2];
          q.dNdX(a, 0) = df[0] * f[1] * f[2];
          q.dNdX(a, 1) = f[0] * df[1] * f[2];
          q.dNdX(a, 2) = f[0] * f[1] * df[2];
        }
        el.quadrature.push_back(q);
      }
  return el;
}

HexModel makeHexModel() {
  HexModel m;
  m.rest.resize(3 * 16);
  int n = 0;
  for (int z = 0; z < 2; ++z)
    for (int y = 0; y < 2; ++y)
      for (int x = 0; x < 4; ++x) m.rest.segment<3>(3 * n++) = Vec3(x, y, z);
  auto id = [](int x, int y, int z) { return x + 4 * y + 8 * z; };
  auto cell = [&](int x0) {
    std::vector<int> nodes;
    for (int z = 0; z < 2; ++z)
      for (int y = 0; y < 2; ++y)
        for (int x = 0; x < 2; ++x) nodes.push_back(id(x0 + x, y, z));
    return nodes;
  };
  const std::vector<double> full(8, 1.0), cut = {1.0, 0.3, 0.7, 0.1, 0.9, 0.5, 0.2, 0.6};
  m.elements = {hexCell(cell(0), m.rest, full), hexCell(cell(1), m.rest, cut), hexCell(cell(2), m.rest, full)};
  return m;
}

BlockSparsePattern patternOf(const std::vector<Element>& elements, int nodes) {
  std::vector<std::vector<int>> cliques;
  for (const Element& e : elements) cliques.push_back(e.nodes);
  return BlockSparsePattern(nodes, cliques);
}

VecX deformed(const VecX& rest, double amount, unsigned seed) { return testing::randomlyDeformed(rest, amount, seed); }

ElasticEnergy makeEnergy(const HexModel& m, MaterialModel model) {
  return ElasticEnergy(m.elements, model, std::vector<LameParameters>(m.elements.size(), {1.0, 2.0}));
}

class RotatedRestStiffness : public ::testing::TestWithParam<MaterialModel> {};

TEST_P(RotatedRestStiffness, GatheredMatrixMatchesElementAssemblyAndIsSymmetric) {
  const HexModel m = makeHexModel();
  const BlockSparsePattern pattern = patternOf(m.elements, 16);
  ElasticEnergy plain = makeEnergy(m, GetParam()), gathered = makeEnergy(m, GetParam());
  gathered.cacheBlockPositions(pattern);
  const VecX x = deformed(m.rest, 0.4, 7);
  plain.updateRotations(x);
  gathered.updateRotations(x);
  SparseMatrix Hp = pattern.zeroMatrix(), Hg = pattern.zeroMatrix();
  BlockAssembler ap(pattern, Hp), ag(pattern, Hg);  // plain: no cached positions, element by element
  plain.addHessian(x, ap);
  gathered.addHessian(x, ag);
  EXPECT_LT(relativeError(MatX(Hg), MatX(Hp)), 1e-14);
  // Off-diagonal node blocks: the upper one is the exact transpose of the lower one.
  const MatX G(Hg);
  for (int i = 0; i < G.rows(); ++i)
    for (int j = 0; j < G.cols(); ++j) {
      if (i / 3 != j / 3) {
        EXPECT_EQ(G(i, j), G(j, i)) << i << " " << j;
      }
    }
  // Thread count does not change a bit.
  for (int threads : {1, 2, 3}) {
    gathered.setThreads(threads);
    SparseMatrix Ht = pattern.zeroMatrix();
    BlockAssembler at(pattern, Ht);
    gathered.addHessian(x, at);
    EXPECT_EQ((MatX(Ht) - MatX(Hg)).cwiseAbs().maxCoeff(), 0.0) << threads;
  }
  // The damping stiffness goes through the same gather.
  SparseMatrix Dp = pattern.zeroMatrix(), Dg = pattern.zeroMatrix();
  BlockAssembler dp(pattern, Dp), dg(pattern, Dg);
  plain.addDampingStiffness(plain.dampingFrames(x), dp);
  gathered.addDampingStiffness(gathered.dampingFrames(x), dg);
  EXPECT_LT(relativeError(MatX(Dg), MatX(Dp)), 1e-14);
}

TEST_P(RotatedRestStiffness, FrameGradientMatchesQuadratureAndFiniteDifferences) {
  const HexModel m = makeHexModel();
  ElasticEnergy energy = makeEnergy(m, GetParam());
  energy.cacheBlockPositions(patternOf(m.elements, 16));
  energy.updateRotations(deformed(m.rest, 0.2, 11));  // lagged frames
  const VecX x = deformed(m.rest, 0.3, 3);
  VecX fast = VecX::Zero(x.size()), fused = VecX::Zero(x.size());
  energy.addGradient(x, fast);  // from the rest stiffness
  EXPECT_EQ(energy.energyAndAddGradient(x, fused), energy.energy(x));
  EXPECT_EQ(fused, fast);
  // The quadrature loop it replaces: sum_q w_q R P(R^T F_q) dN^T.
  const auto linear = makeMaterial(MaterialModel::Linear);
  VecX quadrature = VecX::Zero(x.size());
  for (size_t e = 0; e < m.elements.size(); ++e) {
    const Element& el = m.elements[e];
    const Mat3 R = GetParam() == MaterialModel::Linear ? Mat3::Identity() : energy.rotations()[e];
    for (const QuadraturePoint& q : el.quadrature) {
      const Mat3 P = R * linear->firstPiola(R.transpose() * deformationGradient(el, q, x), {1.0, 2.0});
      for (int a = 0; a < el.nodeCount(); ++a)
        quadrature.segment<3>(3 * el.nodes[a]) += q.weight * P * q.dNdX.row(a).transpose();
    }
  }
  EXPECT_LT(relativeError(fast, quadrature), 1e-13);
  const VecX fd = centralGradient([&](const VecX& y) { return energy.energy(y); }, x, 1e-6);
  EXPECT_LT(relativeError(fast, fd), 1e-8);
  // Its Jacobian is the gathered Hessian.
  const BlockSparsePattern pattern = patternOf(m.elements, 16);
  SparseMatrix H = pattern.zeroMatrix();
  BlockAssembler assembler(pattern, H);
  energy.addHessian(x, assembler);
  const MatX J = testing::centralGradientJacobian(energy, x, 1e-6);
  EXPECT_LT(relativeError(MatX(H), J), 1e-8);
  // At rest with identity frames there is no force.
  ElasticEnergy atRest = makeEnergy(m, GetParam());
  VecX g0 = VecX::Zero(x.size());
  atRest.addGradient(m.rest, g0);
  EXPECT_LT(g0.cwiseAbs().maxCoeff(), 1e-13);
}

INSTANTIATE_TEST_SUITE_P(LinearInFrame, RotatedRestStiffness,
                         ::testing::Values(MaterialModel::Linear, MaterialModel::WarpedCorotated));

TEST(RotatedStiffnessGather, RefusesAMatrixOfAnotherPattern) {
  const HexModel m = makeHexModel();
  const RotatedStiffnessGather gather(m.elements, patternOf(m.elements, 16));
  const BlockSparsePattern other = patternOf({m.elements[0]}, 16);
  SparseMatrix H = other.zeroMatrix();
  BlockAssembler assembler(other, H);
  const std::vector<MatX> K(3, MatX::Identity(24, 24));
  const std::vector<Mat3> R(3, Mat3::Identity());
  EXPECT_THROW(gather.add([&](int e) -> const MatX& { return K[e]; }, R, 1, assembler), std::logic_error);
  EXPECT_THROW(RotatedStiffnessGather(m.elements, other), std::logic_error);
}

}  // namespace
}  // namespace softfit
