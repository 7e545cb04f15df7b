#include "face/active_corotated.h"

#include <gtest/gtest.h>

#include "face_test_support.h"
#include "forward/materials/corotated_material.h"
#include "forward/math/polar_decomposition.h"
#include "support/finite_difference.h"

namespace softfit::face {
namespace {

using softfit::testing::centralGradient;
using softfit::testing::centralJacobian;
using softfit::testing::relativeError;
using testing::Uniform;

Mat3 randomF(Uniform& u, double amplitude) {
  Mat3 F = Mat3::Identity();
  for (int k = 0; k < 9; ++k) F.data()[k] += amplitude * u();
  return F;
}

const LameParameters kLame{2.0, 5.0};

TEST(ActiveCorotated, ZeroAtRestAndForRotatedActivatedShape) {
  const Mat3 I = Mat3::Identity();
  EXPECT_EQ(activeEnergyDensity(I, I, kLame), 0.0);
  EXPECT_LT(activeFirstPiola(I, I, kLame).norm(), 1e-14);
  // F = Q A: the muscle term vanishes for any rotation Q.
  Uniform u(3);
  const Mat3 A = symmetricFromActivation(randomActivation(u, 0.2));
  const Mat3 Q = polarRotation(randomF(u, 0.8));
  const LameParameters muOnly{2.0, 0.0};
  EXPECT_LT(activeEnergyDensity(Q * A, A, muOnly), 1e-24);
}

TEST(ActiveCorotated, PassiveActivationIsCorotatedElasticity) {
  const CorotatedMaterial corotated;
  Uniform u(7);
  const Mat3 I = Mat3::Identity();
  for (int trial = 0; trial < 5; ++trial) {
    const Mat3 F = randomF(u, 0.4);
    // Shear term identical: mu ||F - polar(F)||^2.
    const LameParameters muOnly{kLame.mu, 0.0};
    EXPECT_NEAR(activeEnergyDensity(F, I, muOnly), corotated.energyDensity(F, muOnly), 1e-13);
    EXPECT_LT((activeFirstPiola(F, I, muOnly) - corotated.firstPiola(F, muOnly)).norm(), 1e-12);
  }
  // Same linearization (Hessian at rest) with the full Lame parameters ...
  EXPECT_LT((activeFirstPiolaDerivative(I, I, kLame) - corotated.firstPiolaDerivative(I, kLame)).norm(), 1e-12);
  // ... so energies agree to third order in the strain.
  for (double eps : {1e-2, 1e-3}) {
    const Mat3 F = I + eps * randomF(u, 1.0) - eps * I;
    const double a = activeEnergyDensity(F, I, kLame), b = corotated.energyDensity(F, kLame);
    EXPECT_LT(std::abs(a - b), 50 * eps * eps * eps) << eps;
  }
}

TEST(ActiveCorotated, DerivativesMatchFiniteDifferences) {
  Uniform u(11);
  for (int trial = 0; trial < 6; ++trial) {
    const Mat3 F = randomF(u, trial < 5 ? 0.4 : 1.2);  // last: large, possibly inverted
    const Vec6 a = randomActivation(u, 0.3);
    const Mat3 A = symmetricFromActivation(a);
    const Vec9 f = flatten(F);
    const auto energy = [&](const VecX& v) { return activeEnergyDensity(unflatten(v), A, kLame); };
    const auto piola = [&](const VecX& v) -> VecX { return flatten(activeFirstPiola(unflatten(v), A, kLame)); };
    EXPECT_LT(relativeError(flatten(activeFirstPiola(F, A, kLame)), centralGradient(energy, f, 1e-6)), 1e-7);
    EXPECT_LT(relativeError(activeFirstPiolaDerivative(F, A, kLame), centralJacobian(piola, f, 1e-6)), 1e-7);
    const auto energyA = [&](const VecX& v) { return activeEnergyDensity(F, symmetricFromActivation(v), kLame); };
    const auto piolaA = [&](const VecX& v) -> VecX {
      return flatten(activeFirstPiola(F, symmetricFromActivation(v), kLame));
    };
    EXPECT_LT(relativeError(activeEnergyActivationGradient(F, A, kLame), centralGradient(energyA, a, 1e-6)), 1e-7);
    EXPECT_LT(relativeError(activeFirstPiolaActivationDerivative(F, A, kLame), centralJacobian(piolaA, a, 1e-6)),
              1e-7);
  }
}

TEST(Activation, DeterminantGradientAndContraction) {
  Uniform u(5);
  const Vec6 a = randomActivation(u, 0.3);
  const auto det = [](const VecX& v) { return activationDeterminant(v); };
  EXPECT_LT(relativeError(activationDeterminantGradient(a), centralGradient(det, a, 1e-6)), 1e-8);
  EXPECT_NEAR(activationDeterminant(fibreContraction(Vec3(1, 2, 3), 0.7)), 1.0, 1e-14);
  EXPECT_EQ(activationFromSymmetric(symmetricFromActivation(a)), a);
}

}  // namespace
}  // namespace softfit::face
