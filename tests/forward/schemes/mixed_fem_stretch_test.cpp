// Finite-difference tests of the mixed-FEM derivatives: ds/dF, ds/dx, and the
// stretch-form energies' gradients and Hessians.
#include "forward/schemes/mixed_fem_stretch.h"

#include <gtest/gtest.h>

#include <Eigen/Geometry>

#include "forward/errors.h"
#include "forward/materials/corotated_material.h"
#include "forward/materials/stable_neo_hookean_material.h"
#include "forward/math/polar_decomposition.h"
#include "forward/mesh/procedural_box.h"
#include "forward/schemes/mixed_fem_stretch_energy.h"
#include "support/finite_difference.h"

namespace softfit {
namespace {

std::vector<Mat3> testDeformations() {
  Mat3 general;
  general << 1.2, 0.3, -0.1, -0.2, 0.9, 0.25, 0.15, -0.3, 1.1;
  Mat3 inverted = general;
  inverted.col(2) *= -0.4;  // det < 0
  Mat3 rotatedStretch = Eigen::AngleAxisd(0.7, Vec3(1, 2, 3).normalized()).toRotationMatrix() *
                        Vec3(1.3, 0.8, 0.95).asDiagonal();
  return {general, inverted, rotatedStretch};
}

TEST(MixedFemStretch, VoigtRoundTripAndStretchIsPolarFactor) {
  for (const Mat3& F : testDeformations()) {
    const Mat3 S = symmetricFromVoigt(stretchOf(F));
    EXPECT_LT((polarRotation(F) * S - F).norm(), 1e-12);
    EXPECT_LT((S - S.transpose()).norm(), 1e-15);
    EXPECT_NEAR(S.determinant(), F.determinant(), 1e-12);
    EXPECT_LT((voigtFromSymmetric(S) - stretchOf(F)).norm(), 1e-15);
    EXPECT_LT((symmetricExpansion() * stretchOf(F) - flatten(S)).norm(), 1e-15);
  }
}

TEST(MixedFemStretch, StretchDerivativeMatchesFiniteDifferences) {
  for (const Mat3& F : testDeformations()) {
    auto s = [](const VecX& f) -> VecX { return stretchOf(unflatten(f)); };
    const MatX fd = testing::centralJacobian(s, flatten(F), 1e-6);
    EXPECT_LT(testing::relativeError(stretchDerivative(F), fd), 1e-8) << F;
  }
}

TEST(MixedFemStretch, ElementStretchJacobianMatchesFiniteDifferences) {
  const TetMesh mesh = makeBoxMesh(Vec3(0, 0, 0), Vec3(1, 1, 1), 1, 1, 1);
  const std::vector<Element> elements = buildTetElements(mesh);
  const Element& e = elements[2];
  const QuadraturePoint& q = e.quadrature[0];
  VecX x = mesh.restPositions();
  const Mat3 A = testDeformations()[0];
  for (int i = 0; i < x.size() / 3; ++i) x.segment<3>(3 * i) = A * x.segment<3>(3 * i) + Vec3(0.1, 0.2, 0.3);
  VecX xe(12);
  for (int a = 0; a < 4; ++a) xe.segment<3>(3 * a) = x.segment<3>(3 * e.nodes[a]);
  auto s = [&](const VecX& local) -> VecX {
    VecX full = x;
    for (int a = 0; a < 4; ++a) full.segment<3>(3 * e.nodes[a]) = local.segment<3>(3 * a);
    return stretchOf(deformationGradient(e, q, full));
  };
  const MatX J = stretchJacobian(e, q, deformationGradient(e, q, x));
  EXPECT_LT(testing::relativeError(J, testing::centralJacobian(s, xe, 1e-6)), 1e-8);
}

class StretchEnergyTest : public ::testing::TestWithParam<MaterialModel> {};

TEST_P(StretchEnergyTest, GradientAndHessianMatchFiniteDifferences) {
  const auto energy = makeStretchEnergy(GetParam());
  const LameParameters p{3.0, 7.0};
  for (const Mat3& F : testDeformations()) {
    const Vec6 s = stretchOf(F);
    auto value = [&](const VecX& t) { return energy->energy(t, p); };
    auto grad = [&](const VecX& t) -> VecX { return energy->gradient(t, p); };
    EXPECT_LT(testing::relativeError(energy->gradient(s, p), testing::centralGradient(value, s, 1e-6)), 1e-8);
    EXPECT_LT(testing::relativeError(energy->hessian(s, p), testing::centralJacobian(grad, s, 1e-6)), 1e-8);
  }
}

TEST_P(StretchEnergyTest, EqualsTheDeformationGradientModel) {
  const auto energy = makeStretchEnergy(GetParam());
  const auto material = makeMaterial(GetParam());
  const LameParameters p{3.0, 7.0};
  for (const Mat3& F : testDeformations())
    EXPECT_NEAR(energy->energy(stretchOf(F), p), material->energyDensity(F, p), 1e-11);
}

INSTANTIATE_TEST_SUITE_P(Materials, StretchEnergyTest,
                         ::testing::Values(MaterialModel::StableNeoHookean, MaterialModel::Corotated,
                                           MaterialModel::ARAP));

TEST(StretchEnergy, RejectsMaterialsWithoutStretchForm) {
  EXPECT_THROW(makeStretchEnergy(MaterialModel::StVK, "scene.material"), InputError);
  EXPECT_THROW(makeStretchEnergy(MaterialModel::Linear), InputError);
}

}  // namespace
}  // namespace softfit
