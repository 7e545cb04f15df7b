// Finite-difference checks of P = dPsi/dF, dP/dF and the Lame-parameter derivatives for
// every material model at near-identity, strongly stretched and inverted F.
#include <gtest/gtest.h>

#include <cmath>

#include "material_test_utils.h"

namespace softfit {
namespace {

using test::relativelyClose;

class MaterialDerivatives : public ::testing::TestWithParam<MaterialModel> {
 protected:
  std::unique_ptr<Material> material_ = makeMaterial(GetParam());
};

constexpr double kStep = 1e-6;
constexpr double kTol = 1e-6;

TEST_P(MaterialDerivatives, StressIsEnergyGradient) {
  const LameParameters p = test::testParameters();
  for (const test::Sample& s : test::sampleDeformations()) {
    const Mat3 P = material_->firstPiola(s.F, p);
    Mat3 Pfd;
    for (int c = 0; c < 9; ++c) {
      Mat3 Fp = s.F, Fm = s.F;
      Fp(c) += kStep;
      Fm(c) -= kStep;
      Pfd(c) = (material_->energyDensity(Fp, p) - material_->energyDensity(Fm, p)) / (2.0 * kStep);
    }
    EXPECT_TRUE(P.allFinite()) << s.name;
    EXPECT_GT(P.norm(), 1e-3) << s.name;  // the check below is not vacuous
    EXPECT_TRUE(relativelyClose(P, Pfd, kTol)) << s.name << "\nP =\n" << P << "\nFD =\n" << Pfd;
  }
}

TEST_P(MaterialDerivatives, StressDerivativeIsStressJacobian) {
  const LameParameters p = test::testParameters();
  for (const test::Sample& s : test::sampleDeformations()) {
    const Mat9 H = material_->firstPiolaDerivative(s.F, p);
    Mat9 Hfd;
    for (int c = 0; c < 9; ++c) {
      Mat3 Fp = s.F, Fm = s.F;
      Fp(c) += kStep;
      Fm(c) -= kStep;
      Hfd.col(c) = flatten(material_->firstPiola(Fp, p) - material_->firstPiola(Fm, p)) / (2.0 * kStep);
    }
    EXPECT_TRUE(H.allFinite()) << s.name;
    EXPECT_TRUE(relativelyClose(H, Hfd, kTol)) << s.name << "\nrelative error " << (H - Hfd).norm() / H.norm();
    // A Hessian of Psi: symmetric up to round-off.
    EXPECT_TRUE(relativelyClose(H, Mat9(H.transpose()), 1e-13)) << s.name;
  }
}

TEST_P(MaterialDerivatives, ParameterDerivativesMatchFiniteDifferences) {
  const LameParameters p = test::testParameters();
  // Psi and P are linear in (mu, lambda): central differences have no truncation error,
  // so a large step keeps the round-off of large (inverted neo-Hookean) stresses small.
  const double h = 1e-3;
  for (const test::Sample& s : test::sampleDeformations()) {
    const std::array<double, 2> dPsi = material_->energyParameterDerivative(s.F, p);
    const std::array<Mat3, 2> dP = material_->firstPiolaParameterDerivative(s.F, p);
    for (int k = 0; k < 2; ++k) {
      LameParameters pp = p, pm = p;
      (k == 0 ? pp.mu : pp.lambda) += h;
      (k == 0 ? pm.mu : pm.lambda) -= h;
      const double dPsiFd = (material_->energyDensity(s.F, pp) - material_->energyDensity(s.F, pm)) / (2.0 * h);
      const Mat3 dPFd = (material_->firstPiola(s.F, pp) - material_->firstPiola(s.F, pm)) / (2.0 * h);
      const char* name = k == 0 ? "mu" : "lambda";
      EXPECT_LE(std::abs(dPsi[k] - dPsiFd), kTol * std::max({std::abs(dPsi[k]), std::abs(dPsiFd), 1e-300}))
          << s.name << " d/d" << name << ": " << dPsi[k] << " vs " << dPsiFd;
      EXPECT_TRUE(relativelyClose(dP[k], dPFd, kTol)) << s.name << " d/d" << name;
    }
    // Psi and P are linear in (mu, lambda): Euler's identity checks the scale exactly.
    const double psi = material_->energyDensity(s.F, p);
    EXPECT_NEAR(p.mu * dPsi[0] + p.lambda * dPsi[1], psi, 1e-12 * std::abs(psi) + 1e-300) << s.name;
    const Mat3 P = material_->firstPiola(s.F, p);
    EXPECT_TRUE(relativelyClose(Mat3(p.mu * dP[0] + p.lambda * dP[1]), P, 1e-12)) << s.name;
  }
}

TEST_P(MaterialDerivatives, RestStateHasZeroEnergyAndStress) {
  for (const LameParameters& p : {test::testParameters(), LameParameters{1e5, 4e6}}) {
    const double scale = p.mu + p.lambda;
    EXPECT_NEAR(material_->energyDensity(Mat3::Identity(), p), 0.0, 1e-12 * scale);
    EXPECT_LE(material_->firstPiola(Mat3::Identity(), p).norm(), 1e-12 * scale);
    const std::array<double, 2> dPsi = material_->energyParameterDerivative(Mat3::Identity(), p);
    EXPECT_NEAR(dPsi[0], 0.0, 1e-12);
    EXPECT_NEAR(dPsi[1], 0.0, 1e-12);
    const std::array<Mat3, 2> dP = material_->firstPiolaParameterDerivative(Mat3::Identity(), p);
    EXPECT_LE(dP[0].norm() + dP[1].norm(), 1e-12);
  }
}

TEST_P(MaterialDerivatives, RestHessianIsLinearElasticity) {
  // Every model linearizes to small-strain elasticity at F = I, with the Lame
  // parameters (mu, lambda), except ARAP (lambda' = 0). Stable neo-Hookean matches too,
  // thanks to its lambda + mu reparameterization.
  const LameParameters p = test::testParameters();
  LameParameters linear = p;
  if (GetParam() == MaterialModel::ARAP) linear.lambda = 0.0;
  const Mat9 expected = makeMaterial(MaterialModel::Linear)->firstPiolaDerivative(Mat3::Identity(), linear);
  EXPECT_TRUE(relativelyClose(material_->firstPiolaDerivative(Mat3::Identity(), p), expected, 1e-13));
}

INSTANTIATE_TEST_SUITE_P(AllModels, MaterialDerivatives, ::testing::ValuesIn(test::allModels()),
                         [](const ::testing::TestParamInfo<MaterialModel>& info) {
                           return materialModelName(info.param);
                         });

}  // namespace
}  // namespace softfit
