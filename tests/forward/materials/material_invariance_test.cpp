// Rotation invariance of the nonlinear models: Psi(Q) = 0, P(Q) = 0 for a rigid
// rotation Q, Psi(Q F) = Psi(F) (frame indifference), Psi(F Q) = Psi(F) (isotropy).
#include <gtest/gtest.h>

#include <cmath>

#include "material_test_utils.h"

namespace softfit {
namespace {

using test::relativelyClose;

class MaterialInvariance : public ::testing::TestWithParam<MaterialModel> {
 protected:
  std::unique_ptr<Material> material_ = makeMaterial(GetParam());
};

std::vector<Mat3> rotations() {
  Mat3 z90;  // 90 degrees about z
  z90 << 0.0, -1.0, 0.0,  //
      1.0, 0.0, 0.0,      //
      0.0, 0.0, 1.0;
  std::mt19937 rng(11);
  return {z90, Eigen::AngleAxisd(M_PI / 2, Vec3(1.0, 2.0, 3.0).normalized()).toRotationMatrix(),
          Eigen::AngleAxisd(M_PI, Vec3::UnitX()).toRotationMatrix(), test::randomRotation(rng)};
}

TEST_P(MaterialInvariance, RigidRotationHasZeroEnergyAndStress) {
  const LameParameters p = test::testParameters();
  for (const Mat3& Q : rotations()) {
    EXPECT_NEAR(material_->energyDensity(Q, p), 0.0, 1e-12) << Q;
    EXPECT_LE(material_->firstPiola(Q, p).norm(), 1e-12) << Q;
  }
}

TEST_P(MaterialInvariance, EnergyIsFrameIndifferentAndIsotropic) {
  const LameParameters p = test::testParameters();
  for (const test::Sample& s : test::sampleDeformations()) {
    const double psi = material_->energyDensity(s.F, p);
    const Mat3 P = material_->firstPiola(s.F, p);
    const Mat9 H = material_->firstPiolaDerivative(s.F, p);
    for (const Mat3& Q : rotations()) {
      EXPECT_NEAR(material_->energyDensity(Q * s.F, p), psi, 1e-12 * std::abs(psi)) << s.name;
      EXPECT_NEAR(material_->energyDensity(s.F * Q, p), psi, 1e-12 * std::abs(psi)) << s.name;
      // P(Q F) = Q P(F), and dP transforms as dP(QF)[Q dF] = Q dP(F)[dF].
      EXPECT_TRUE(relativelyClose(material_->firstPiola(Q * s.F, p), Mat3(Q * P), 1e-12)) << s.name;
      const Mat9 HQ = material_->firstPiolaDerivative(Q * s.F, p);
      Mat9 QQ = Mat9::Zero();  // vec(Q X) = (I kron Q) vec(X)
      for (int b = 0; b < 3; ++b) QQ.block<3, 3>(3 * b, 3 * b) = Q;
      EXPECT_TRUE(relativelyClose(Mat9(HQ * QQ), Mat9(QQ * H), 1e-11)) << s.name;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(NonlinearModels, MaterialInvariance,
                         ::testing::Values(MaterialModel::Corotated, MaterialModel::NeoHookean,
                                           MaterialModel::StableNeoHookean, MaterialModel::StVK,
                                           MaterialModel::ARAP),
                         [](const ::testing::TestParamInfo<MaterialModel>& info) {
                           return materialModelName(info.param);
                         });

TEST(MaterialInvariance, LinearModelIsNotRotationInvariant) {
  // Documents why Linear/WarpedCorotated are excluded above (the warping is done by the energy).
  Mat3 z90;
  z90 << 0.0, -1.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0;
  EXPECT_GT(makeMaterial(MaterialModel::Linear)->energyDensity(z90, test::testParameters()), 1.0);
}

}  // namespace
}  // namespace softfit
