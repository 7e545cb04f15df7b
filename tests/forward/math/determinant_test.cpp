#include "forward/math/determinant.h"

#include <gtest/gtest.h>

#include "test_matrices.h"

namespace softfit {
namespace {

TEST(Determinant, CofactorIsJTimesInverseTranspose) {
  std::mt19937 rng(3);
  for (int k = 0; k < 5; ++k) {
    const Mat3 F = test::randomMatrix(rng, 1.5);
    const Mat3 expected = F.determinant() * F.inverse().transpose();
    EXPECT_LT((cofactor(F) - expected).norm(), 1e-13 * expected.norm());
  }
  const Mat3 singular = Vec3(1.0, 2.0, 0.0).asDiagonal();
  EXPECT_EQ(cofactor(singular), Mat3(Vec3(0.0, 0.0, 2.0).asDiagonal()));
}

TEST(Determinant, HessianMatchesFiniteDifferencesOfCofactor) {
  std::mt19937 rng(4);
  for (int k = 0; k < 5; ++k) {
    const Mat3 F = test::randomMatrix(rng, 1.5);
    const Mat9 H = determinantHessian(F);
    Mat9 Hfd;
    const double h = 1e-5;
    for (int c = 0; c < 9; ++c) {
      Mat3 Fp = F, Fm = F;
      Fp(c) += h;
      Fm(c) -= h;
      Hfd.col(c) = flatten(cofactor(Fp) - cofactor(Fm)) / (2.0 * h);
    }
    // cofactor is quadratic in F: central differences are exact up to round-off.
    EXPECT_LT((H - Hfd).norm(), 1e-9 * H.norm());
    EXPECT_EQ(H, H.transpose());
    // Cofactor gradient check: d det / dF.
    Mat3 G;
    for (int c = 0; c < 9; ++c) {
      Mat3 Fp = F, Fm = F;
      Fp(c) += h;
      Fm(c) -= h;
      G(c) = (Fp.determinant() - Fm.determinant()) / (2.0 * h);
    }
    EXPECT_LT((cofactor(F) - G).norm(), 1e-9 * G.norm());
  }
}

}  // namespace
}  // namespace softfit
