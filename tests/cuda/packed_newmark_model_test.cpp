// GPU-free checks of what the CUDA kernels consume and compute: the packed BSR pattern
// and element data against the CPU model, the ported polar decomposition and its
// adjoint against forward/math, the gathered stiffness assembly against
// PhysicalModel::assembleStiffness, and the fixed-order reductions.
#include <gtest/gtest.h>

#include <random>

#include "cuda/host_executor.h"
#include "cuda/packed_newmark_model_builder.h"
#include "forward/math/polar_decomposition.h"
#include "newmark_scenes.h"

namespace softfit::gpu {
namespace {

using softfit::testing::clampedBoxScene;
using softfit::testing::droppedGridScene;

M3<double> toM3(const Mat3& a) {
  M3<double> m;
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) m(r, c) = a(r, c);
  return m;
}
Mat3 toMat3(const M3<double>& m) {
  Mat3 a;
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) a(r, c) = m(r, c);
  return a;
}

std::vector<softfit::testing::NewmarkScene> twoScenes() {
  std::vector<softfit::testing::NewmarkScene> scenes;
  scenes.push_back(clampedBoxScene());
  scenes.push_back(droppedGridScene());
  return scenes;
}

ModelView<double> viewOf(const PackedNewmarkModel& p) {
  ModelView<double> M;
  M.nodeCount = p.nodeCount;
  M.elementCount = p.elementCount;
  M.blockCount = p.blockCount();
  M.pointCount = p.pointCount;
  M.warped = p.warped;
  M.rowStart = p.rowStart.data();
  M.column = p.column.data();
  M.diagonal = p.diagonal.data();
  M.blockRow = p.blockRow.data();
  M.slotStart = p.slotStart.data();
  M.slotNode = p.slotNode.data();
  M.lame = p.lame.data();
  M.stiffnessStart = p.stiffnessStart.data();
  M.stiffness = p.stiffness.data();
  M.averageGradient = p.averageGradient.data();
  M.restForceShape = p.restForceShape.data();
  M.massWeight = p.massWeight.data();
  M.quadratureStart = p.quadratureStart.data();
  M.quadratureWeight = p.quadratureWeight.data();
  M.shapeGradient = p.shapeGradient.data();
  M.shapeGradientStart = p.shapeGradientStart.data();
  M.blockContributionStart = p.blockContributionStart.data();
  M.contributionElement = p.contributionElement.data();
  M.contributionOffset = p.contributionOffset.data();
  M.nodeSlotStart = p.nodeSlotStart.data();
  M.nodeSlot = p.nodeSlot.data();
  M.rest = p.rest.data();
  M.mass = p.mass.data();
  M.springStiffness = p.springStiffness.data();
  M.springForce = p.springForce.data();
  M.fixed = p.fixed.data();
  M.pointStart = p.pointStart.data();
  M.pointNode = p.pointNode.data();
  M.pointWeight = p.pointWeight.data();
  M.nodeEntryStart = p.nodeEntryStart.data();
  M.nodeEntry = p.nodeEntry.data();
  M.entryPoint = p.entryPoint.data();
  M.blockContactStart = p.blockContactStart.data();
  M.blockContactPoint = p.blockContactPoint.data();
  M.blockContactWeight = p.blockContactWeight.data();
  return M;
}

TEST(PackedNewmarkModel, PatternMatchesTheCpuBlockPattern) {
  for (auto& scene : twoScenes()) {
    const PhysicalModel& model = *scene.model;
    const PackedNewmarkModel p = packNewmarkModel(model);
    ASSERT_EQ(p.nodeCount, model.nodeCount());
    int blocks = 0;
    for (int i = 0; i < p.nodeCount; ++i) {
      ASSERT_GE(p.diagonal[i], p.rowStart[i]) << scene.name;
      EXPECT_EQ(p.column[p.diagonal[i]], i);
      for (int k = p.rowStart[i]; k < p.rowStart[i + 1]; ++k) {
        EXPECT_GE(model.pattern().blockPosition(i, p.column[k]), 0);
        EXPECT_EQ(p.blockRow[k], i);
        if (k > p.rowStart[i]) {
          EXPECT_LT(p.column[k - 1], p.column[k]);
        }
        ++blocks;
      }
    }
    // Same number of stored entries as the CPU matrix: the pattern is the same.
    EXPECT_EQ(9 * blocks, model.pattern().zeroMatrix().nonZeros()) << scene.name;
    // Every element block has exactly one contribution entry; lumped mass is recovered.
    int contributions = 0;
    for (const Element& el : model.elastic().elements()) contributions += el.nodeCount() * el.nodeCount();
    EXPECT_EQ(static_cast<int>(p.contributionElement.size()), contributions);
    VecX mass = VecX::Zero(model.dofCount());
    for (int e = 0; e < p.elementCount; ++e)
      for (int s = p.slotStart[e]; s < p.slotStart[e + 1]; ++s)
        mass.segment<3>(3 * p.slotNode[s]).array() += model.density()[e] * p.massWeight[s];
    EXPECT_LT((mass - model.mass()).norm(), 1e-12 * model.mass().norm()) << scene.name;
  }
}

TEST(PackedNewmarkModel, PortedPolarDecompositionMatchesTheCpu) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  double worstR = 0.0, worstAdjoint = 0.0;
  for (int trial = 0; trial < 300; ++trial) {
    Mat3 F = Mat3::Identity();
    const double spread = trial < 100 ? 0.3 : 2.0;  // near-rest, then general (some inverted)
    for (int i = 0; i < 9; ++i) F.data()[i] += spread * u(rng);
    const Mat3 Rcpu = polarRotation(F);
    const Svd3<double> svd = signedSvd3(toM3(F));
    worstR = std::max(worstR, (toMat3(polarRotation3(svd)) - Rcpu).cwiseAbs().maxCoeff());
    // (dR/dF)^T dR against the CPU's 9x9 derivative (column-major vec).
    Mat3 dR;
    for (int i = 0; i < 9; ++i) dR.data()[i] = u(rng);
    const Vec9 ref = polarRotationDerivative(F).transpose() * flatten(dR);
    const Mat3 got = toMat3(polarRotationAdjoint(svd, toM3(dR)));
    worstAdjoint = std::max(worstAdjoint, (flatten(got) - ref).cwiseAbs().maxCoeff() / std::max(1.0, ref.norm()));
  }
  EXPECT_LT(worstR, 1e-13);
  EXPECT_LT(worstAdjoint, 1e-11);
}

TEST(PackedNewmarkModel, GatheredRotatedStiffnessMatchesTheCpuAssembly) {
  for (auto& scene : twoScenes()) {
    PhysicalModel& model = *scene.model;
    // A deformed state with sizeable rotations: rigid rotation plus a bend.
    VecX x = model.restPositions();
    const Mat3 Q = Eigen::AngleAxisd(0.7, Vec3(0.3, 1.0, 0.2).normalized()).toRotationMatrix();
    for (int i = 0; i < model.nodeCount(); ++i) {
      Vec3 p = x.segment<3>(3 * i);
      p.y() += 0.2 * p.x() * p.x();
      x.segment<3>(3 * i) = Q * p;
    }
    const PackedNewmarkModel p = packNewmarkModel(model);
    const ModelView<double> M = viewOf(p);
    HostExecutor exec;
    std::vector<double> R(9 * p.elementCount), K(9 * p.blockCount());
    exec.forEach(p.elementCount, ElementRotations<double>{M, x.data(), R.data()});
    exec.forEach(p.blockCount(), AssembleStiffness<double>{M, R.data(), K.data()});

    model.elastic().updateRotations(x);
    SparseMatrix Kcpu = model.pattern().zeroMatrix();
    model.assembleStiffness(x, Kcpu);
    double worstR = 0.0;
    for (int e = 0; e < p.elementCount; ++e)
      for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c)
          worstR = std::max(worstR, std::abs(R[9 * e + 3 * r + c] - model.elastic().rotations()[e](r, c)));
    EXPECT_LT(worstR, 1e-13) << scene.name;
    const SparseMatrix Kgpu = unpackBsr(p, model.pattern(), K);
    EXPECT_LT((Kgpu - Kcpu).norm(), 1e-12 * Kcpu.norm()) << scene.name;
    EXPECT_GT(Kcpu.norm(), 0.0);

    // Rest force of the warped model: -grad E_w(X; R).
    std::vector<double> slot(3 * p.slotCount());
    exec.forEach(p.elementCount, ElasticRestForce<double>{M, R.data(), slot.data()});
    VecX f = VecX::Zero(model.dofCount());
    for (int s = 0; s < p.slotCount(); ++s)
      for (int k = 0; k < 3; ++k) f[3 * p.slotNode[s] + k] += slot[3 * s + k];
    VecX g = VecX::Zero(model.dofCount());
    model.elastic().addGradient(model.restPositions(), g);
    EXPECT_LT((f + g).norm(), 1e-10 * g.norm()) << scene.name;
    EXPECT_GT(g.norm(), 0.0) << scene.name;
  }
}

TEST(PackedNewmarkModel, ReductionsAreFixedOrderAndAccurate) {
  struct Terms {
    const double* v;
    Sums<2> operator()(int i) const { return Sums<2>{{v[i], 1.0}}; }
  };
  for (int n : {1, 255, 256, 1000, 300000}) {
    std::mt19937 rng(n);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    std::vector<double> v(n);
    long double exact = 0.0L;
    for (double& x : v) {
      x = u(rng);
      exact += x;
    }
    HostExecutor exec;
    const Sums<2> a = exec.sum<2>(n, Terms{v.data()});
    const Sums<2> b = exec.sum<2>(n, Terms{v.data()});
    EXPECT_EQ(a.v[0], b.v[0]);
    EXPECT_EQ(a.v[1], static_cast<double>(n));
    EXPECT_NEAR(a.v[0], static_cast<double>(exact), 1e-12 * n);
  }
}

TEST(PackedNewmarkModel, RejectsNonlinearMaterials) {
  const TetMesh mesh = makeBoxMesh(Vec3(0, 0, 0), Vec3(1, 1, 1), 1, 1, 1);
  auto model = softfit::testing::makeBoxModel(mesh, MaterialModel::NeoHookean, 1e4, 0.3, 100.0);
  EXPECT_THROW(packNewmarkModel(*model), InputError);
}

}  // namespace
}  // namespace softfit::gpu
