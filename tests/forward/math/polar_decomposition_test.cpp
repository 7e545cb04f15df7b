#include "forward/math/polar_decomposition.h"

#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>
#include <Eigen/SVD>
#include <cmath>
#include <vector>

#include "test_matrices.h"

namespace softfit {
namespace {

using test::randomMatrix;
using test::randomRotation;
using test::withSingularValues;

std::vector<Mat3> sampleMatrices() {
  std::mt19937 rng(1234);
  std::vector<Mat3> Fs;
  for (int k = 0; k < 4; ++k) Fs.push_back(Mat3::Identity() + randomMatrix(rng, 0.2));
  for (int k = 0; k < 4; ++k) Fs.push_back(randomMatrix(rng, 2.0));
  Fs.push_back(withSingularValues(rng, Vec3(3.0, 1.0, 0.4)));
  Fs.push_back(withSingularValues(rng, Vec3(2.0, 0.7, -0.3)));   // inverted
  Fs.push_back(withSingularValues(rng, Vec3(1.1, 0.9, -0.85)));  // inverted, sigma_1 + sigma_2 small
  Fs.push_back(withSingularValues(rng, Vec3(1.5, 1.5, 1.5)));    // repeated singular values
  Fs.push_back(withSingularValues(rng, Vec3(2.0, 0.5, 0.5)));
  return Fs;
}

TEST(PolarDecomposition, SampleSetContainsInvertedMatrices) {
  int inverted = 0;
  for (const Mat3& F : sampleMatrices()) inverted += F.determinant() < 0.0 ? 1 : 0;
  EXPECT_GE(inverted, 2);
}

TEST(PolarDecomposition, RotationIsProperAndFactorsF) {
  for (const Mat3& F : sampleMatrices()) {
    const Mat3 R = polarRotation(F);
    EXPECT_LT((R.transpose() * R - Mat3::Identity()).norm(), 1e-14) << F;
    EXPECT_NEAR(R.determinant(), 1.0, 1e-14) << F;
    const Mat3 S = R.transpose() * F;
    EXPECT_LT((S - S.transpose()).norm(), 1e-14 * F.norm()) << F;
    // S is positive definite iff det F > 0; otherwise exactly one negative eigenvalue.
    const Eigen::SelfAdjointEigenSolver<Mat3> eig(0.5 * (S + S.transpose()));
    EXPECT_GT(eig.eigenvalues()(1), 0.0);
    EXPECT_EQ(eig.eigenvalues()(0) > 0.0, F.determinant() > 0.0) << F;
  }
}

TEST(PolarDecomposition, RecoversKnownRotation) {
  std::mt19937 rng(7);
  for (int k = 0; k < 5; ++k) {
    const Mat3 Q = randomRotation(rng);
    const Mat3 B = randomMatrix(rng, 1.0);
    const Mat3 S = B * B.transpose() + 0.5 * Mat3::Identity();  // SPD
    EXPECT_LT((polarRotation(Q * S) - Q).norm(), 1e-14);
    EXPECT_LT((polarRotation(Q) - Q).norm(), 1e-15);
  }
  EXPECT_EQ(polarRotation(Mat3::Identity()), Mat3::Identity());
}

TEST(PolarDecomposition, InvertedReflectionGivesClosestRotation) {
  // F = diag(2, 1, -0.5): S = diag(2, 1, -0.5), R = I.
  const Mat3 F = Vec3(2.0, 1.0, -0.5).asDiagonal();
  EXPECT_LT((polarRotation(F) - Mat3::Identity()).norm(), 1e-15);
  const SignedSvd svd = signedSvd(F);
  EXPECT_NEAR(svd.sigma(2), -0.5, 1e-15);
  EXPECT_NEAR(svd.U.determinant(), 1.0, 1e-14);
  EXPECT_NEAR(svd.V.determinant(), 1.0, 1e-14);
}

TEST(PolarDecomposition, IsDeterministic) {
  for (const Mat3& F : sampleMatrices()) {
    EXPECT_EQ(polarRotation(F), polarRotation(F));
    EXPECT_EQ(polarRotationDerivative(F), polarRotationDerivative(F));
  }
}

Mat9 finiteDifferenceDerivative(const Mat3& F, double h) {
  Mat9 D;
  for (int c = 0; c < 9; ++c) {
    Mat3 Fp = F, Fm = F;
    Fp(c) += h;
    Fm(c) -= h;
    D.col(c) = flatten(polarRotation(Fp) - polarRotation(Fm)) / (2.0 * h);
  }
  return D;
}

TEST(PolarDecomposition, DerivativeMatchesFiniteDifferences) {
  for (const Mat3& F : sampleMatrices()) {
    const Mat9 D = polarRotationDerivative(F);
    const Mat9 Dfd = finiteDifferenceDerivative(F, 1e-6);
    EXPECT_LT((D - Dfd).norm(), 1e-6 * D.norm()) << "F =\n" << F << "\ndet F = " << F.determinant();
    EXPECT_LT((D - D.transpose()).norm(), 1e-14 * D.norm());
  }
}

TEST(PolarDecomposition, DerivativeOfRotationIsSkewProjection) {
  // At F = Q: dR = Q skew(Q^T dF), i.e. dR/dF kills Q * symmetric and keeps Q * skew.
  std::mt19937 rng(99);
  const Mat3 Q = randomRotation(rng);
  const Mat9 D = polarRotationDerivative(Q);
  const Mat3 A = randomMatrix(rng, 1.0);
  const Mat3 sym = A + A.transpose(), skew = A - A.transpose();
  EXPECT_LT((D * flatten(Q * sym)).norm(), 1e-14);
  EXPECT_LT((D * flatten(Q * skew) - flatten(Q * skew)).norm(), 1e-14);
}

TEST(PolarDecomposition, DegenerateInputsStayFinite) {
  std::mt19937 rng(5);
  const std::vector<Mat3> Fs = {
      Mat3::Zero(),
      Mat3(Vec3(1.0, 0.0, 0.0).asDiagonal()),
      withSingularValues(rng, Vec3(1.0, 0.5, -0.5)),  // sigma_1 + sigma_2 = 0: R not unique
  };
  for (const Mat3& F : Fs) {
    const Mat3 R = polarRotation(F);
    EXPECT_TRUE(R.allFinite());
    EXPECT_NEAR(R.determinant(), 1.0, 1e-14);
    const Mat9 D = polarRotationDerivative(F);
    EXPECT_TRUE(D.allFinite()) << F;
    EXPECT_LE(D.cwiseAbs().maxCoeff(), 2.0 / kPolarDenominatorFloor);
  }
}


// Polar rotation from Eigen's JacobiSVD directly, as the reference for the closed form.
Mat3 jacobiPolarRotation(const Mat3& F) {
  const Eigen::JacobiSVD<Mat3> svd(F, Eigen::ComputeFullU | Eigen::ComputeFullV);
  Mat3 U = svd.matrixU(), V = svd.matrixV();
  if (U.determinant() < 0.0) U.col(2) *= -1.0;
  if (V.determinant() < 0.0) V.col(2) *= -1.0;
  return U * V.transpose();
}

TEST(PolarDecomposition, ClosedFormSvdIsAccurateAndAgreesWithJacobi) {
  std::mt19937 rng(2024);
  int closedForm = 0, total = 0;
  for (double scale : {1e-9, 1e-4, 1e-2, 0.3}) {
    for (int k = 0; k < 200; ++k) {
      Mat3 F = Mat3::Identity() + randomMatrix(rng, scale);
      if (k % 2) F.col(0) *= -1.0;  // inverted
      const SignedSvd svd = signedSvd(F);
      ++total;
      closedForm += signedSvdIsClosedForm(F) ? 1 : 0;
      EXPECT_LT((svd.U.transpose() * svd.U - Mat3::Identity()).norm(), 1e-14);
      EXPECT_LT((svd.V.transpose() * svd.V - Mat3::Identity()).norm(), 1e-14);
      EXPECT_NEAR(svd.U.determinant(), 1.0, 1e-14);
      EXPECT_NEAR(svd.V.determinant(), 1.0, 1e-14);
      EXPECT_LT((svd.U * svd.sigma.asDiagonal() * svd.V.transpose() - F).norm(), 1e-14 * F.norm()) << F;
      EXPECT_GE(svd.sigma(0), svd.sigma(1));
      EXPECT_GE(svd.sigma(1), std::abs(svd.sigma(2)));
      EXPECT_EQ(svd.sigma(2) < 0.0, F.determinant() < 0.0) << F;
      // R's condition number is sigma_0 / (sigma_1 + sigma_2): large for the inverted
      // near-reflections here (sigma ~ (1, 1, -1)), where R is barely unique.
      const double condition = svd.sigma(0) / std::max(svd.sigma(1) + svd.sigma(2), 1e-300);
      EXPECT_LT((polarRotation(svd) - jacobiPolarRotation(F)).norm(), 1e-14 * std::max(10.0, condition)) << F;
    }
  }
  // The fast path is the common one on deformation gradients of this kind.
  EXPECT_GE(closedForm, total * 95 / 100);
}

TEST(PolarDecomposition, RankDeficientMatricesTakeJacobi) {
  std::mt19937 rng(11);
  const Vec3 a = randomMatrix(rng, 1.0).col(0), b = randomMatrix(rng, 1.0).col(1);
  for (const Mat3& F : {Mat3(Mat3::Zero()), Mat3(a * b.transpose())}) {
    EXPECT_FALSE(signedSvdIsClosedForm(F)) << F;
    const SignedSvd svd = signedSvd(F);
    EXPECT_NEAR(svd.U.determinant(), 1.0, 1e-14);
    EXPECT_NEAR(svd.V.determinant(), 1.0, 1e-14);
    EXPECT_LT((svd.U * svd.sigma.asDiagonal() * svd.V.transpose() - F).norm(), 1e-14 * std::max(1.0, F.norm()));
  }
  EXPECT_TRUE(signedSvdIsClosedForm(Mat3::Identity()));
}

}  // namespace
}  // namespace softfit
