#include "forward/energies/physical_model.h"

#include <gtest/gtest.h>

#include "forward/energies/attachment_springs.h"
#include "forward/mesh/procedural_box.h"
#include "forward/mesh/tet_mesh.h"
#include "support/finite_difference.h"

namespace softfit {
namespace {

PhysicalModel makeModel() {
  const TetMesh mesh = makeBoxMesh(Vec3(0, 0, 0), Vec3(1, 2, 1), 1, 2, 1);
  const int m = mesh.tetCount();
  VecX density = VecX::Constant(m, 500.0);
  density.head(m / 2).setConstant(1500.0);  // heterogeneous
  return PhysicalModel(mesh.restPositions(), buildTetElements(mesh), MaterialModel::NeoHookean,
                       std::vector<LameParameters>(m, lameFromYoungPoisson(1e4, 0.3)), density);
}

TEST(PhysicalModel, LumpedMassSumsToDensityTimesVolume) {
  PhysicalModel model = makeModel();
  EXPECT_NEAR(model.totalMass(), 1500.0 * 1.0 + 500.0 * 1.0, 1e-9);
  EXPECT_GT(model.mass().minCoeff(), 0.0);
}

TEST(PhysicalModel, PotentialGradientAndHessianMatchFiniteDifferences) {
  PhysicalModel model = makeModel();
  model.gravity = Vec3(0.5, -9.81, 0.2);
  GroundPlane plane;
  plane.stiffness = 1e5;
  plane.offset = -0.02;
  std::vector<int> all(model.nodeCount());
  for (int i = 0; i < model.nodeCount(); ++i) all[i] = i;
  model.ground = GroundContact(plane, all);
  model.attachments = AttachmentSprings({{0, Vec3(0.1, 0.2, 0.3), 50.0}, {5, Vec3(1, 1, 1), 20.0}});
  std::srand(1);
  const VecX x = model.restPositions() + 0.05 * VecX::Random(model.dofCount());
  VecX g = VecX::Zero(model.dofCount());
  model.addPotentialGradient(x, g);
  const VecX gFd = testing::centralGradient([&](const VecX& y) { return model.potentialEnergy(y); }, x, 1e-6);
  EXPECT_LT(testing::relativeError(g, gFd), 1e-7);

  SparseMatrix H = model.pattern().zeroMatrix();
  BlockAssembler assembler(model.pattern(), H);
  model.addPotentialHessian(x, assembler, EigenvalueFilter::None, 0.0);
  const MatX HFd = testing::centralJacobian(
      [&](const VecX& y) {
        VecX gy = VecX::Zero(y.size());
        model.addPotentialGradient(y, gy);
        return gy;
      },
      x, 1e-6);
  EXPECT_LT(testing::relativeError(MatX(H), HFd), 1e-6);
}

// The model caches where each element block lands in its pattern: assembling with the
// cache gives the same bits as searching every block, and a matrix of another pattern
// (different fingerprint) is still assembled correctly, by search.
TEST(PhysicalModel, CachedElementBlockPositionsAssembleTheSameBits) {
  PhysicalModel model = makeModel();
  std::srand(3);
  const VecX x = model.restPositions() + 0.05 * VecX::Random(model.dofCount());
  SparseMatrix cached = model.pattern().zeroMatrix();
  BlockAssembler viaCache(model.pattern(), cached);
  model.elastic().addHessian(x, viaCache);
  const ElasticEnergy uncachedEnergy(model.elastic().elements(), model.elastic().model(), model.elastic().parameters());
  SparseMatrix searched = model.pattern().zeroMatrix();
  BlockAssembler viaSearch(model.pattern(), searched);
  uncachedEnergy.addHessian(x, viaSearch);
  ASSERT_EQ(cached.nonZeros(), searched.nonZeros());
  for (Eigen::Index k = 0; k < cached.nonZeros(); ++k) ASSERT_EQ(cached.valuePtr()[k], searched.valuePtr()[k]) << k;

  // A pattern with one extra coupling: other fingerprint, the cache is not used.
  std::vector<std::vector<int>> cliques;
  for (const Element& el : model.elastic().elements()) cliques.push_back(el.nodes);
  cliques.push_back({0, model.nodeCount() - 1});
  const BlockSparsePattern wider(model.nodeCount(), cliques);
  ASSERT_NE(wider.fingerprint(), model.pattern().fingerprint());
  EXPECT_EQ(BlockSparsePattern(model.nodeCount(), cliques).fingerprint(), wider.fingerprint());
  SparseMatrix other = wider.zeroMatrix();
  BlockAssembler viaOther(wider, other);
  model.elastic().addHessian(x, viaOther);
  EXPECT_LT((MatX(other) - MatX(cached)).cwiseAbs().maxCoeff(), 1e-12 * MatX(cached).cwiseAbs().maxCoeff());
}

TEST(PhysicalModel, DampingMatrixIsRayleighCombination) {
  PhysicalModel model = makeModel();
  model.damping = {0.3, 0.02};
  const VecX x = model.restPositions();
  SparseMatrix D = model.pattern().zeroMatrix(), K = model.pattern().zeroMatrix();
  model.assembleDamping(x, D);
  model.assembleStiffness(x, K);
  const MatX expected = 0.3 * MatX(model.mass().asDiagonal()) + 0.02 * MatX(K);
  EXPECT_LT(testing::relativeError(MatX(D), expected), 1e-14);
}

}  // namespace
}  // namespace softfit
