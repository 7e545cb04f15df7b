#include "forward/math/psd_projection.h"

#include <gtest/gtest.h>

#include <Eigen/QR>
#include <random>

#include "forward/errors.h"

namespace softfit {
namespace {

using Mat12 = Eigen::Matrix<double, 12, 12>;
using Vec12 = Eigen::Matrix<double, 12, 1>;

Mat12 randomOrthogonal(std::mt19937& rng) {
  std::normal_distribution<double> n(0.0, 1.0);
  Mat12 A;
  for (int k = 0; k < A.size(); ++k) A(k) = n(rng);
  const Eigen::HouseholderQR<Mat12> qr(A);
  return qr.householderQ();
}

// 12x12 symmetric matrix with prescribed spectrum: negative, positive, tiny and exact zero
// (rigid) modes.
struct Spectrum {
  Mat12 Q;
  Vec12 values;
  Mat12 matrix() const { return Q * values.asDiagonal() * Q.transpose(); }
};

Spectrum testSpectrum(unsigned seed) {
  std::mt19937 rng(seed);
  Spectrum s;
  s.Q = randomOrthogonal(rng);
  s.values << -3.0, -0.5, -1e-3, 0.0, 0.0, 0.0, 1e-4, 0.2, 1.0, 2.5, 7.0, 40.0;
  return s;
}

Mat12 expected(const Spectrum& s, EigenvalueFilter filter, double eps) {
  Vec12 l = s.values;
  for (int i = 0; i < 12; ++i) l(i) = filter == EigenvalueFilter::Clamp ? std::max(l(i), eps) : std::abs(l(i));
  return s.Q * l.asDiagonal() * s.Q.transpose();
}

TEST(PsdProjection, ClampRaisesEigenvaluesToEps) {
  const Spectrum s = testSpectrum(1);
  Mat12 H = s.matrix();
  projectToPsd(H, EigenvalueFilter::Clamp, 1e-2);
  EXPECT_LT((H - expected(s, EigenvalueFilter::Clamp, 1e-2)).norm(), 1e-12 * H.norm());
  EXPECT_EQ(H, H.transpose());
  const Eigen::SelfAdjointEigenSolver<Mat12> eig(H);
  EXPECT_NEAR(eig.eigenvalues()(0), 1e-2, 1e-12);
}

TEST(PsdProjection, AbsFlipsNegativeEigenvaluesAndKeepsZeros) {
  const Spectrum s = testSpectrum(2);
  Mat12 H = s.matrix();
  projectToPsd(H, EigenvalueFilter::Abs, 1e-2);  // eps is not used by Abs
  EXPECT_LT((H - expected(s, EigenvalueFilter::Abs, 0.0)).norm(), 1e-12 * H.norm());
  const Eigen::SelfAdjointEigenSolver<Mat12> eig(H);
  // Three zero modes stay (numerically) zero, the smallest positive mode is 1e-4.
  for (int i = 0; i < 3; ++i) EXPECT_NEAR(eig.eigenvalues()(i), 0.0, 1e-13);
  EXPECT_NEAR(eig.eigenvalues()(3), 1e-4, 1e-13);
  // Rigid modes remain in the null space.
  for (int i = 3; i < 6; ++i) EXPECT_LT((H * s.Q.col(i)).norm(), 1e-13);
}

TEST(PsdProjection, NoneLeavesMatrixUntouched) {
  Mat12 H = testSpectrum(3).matrix();
  H(0, 1) += 1.0;  // not even symmetric: None must not look at it
  const Mat12 before = H;
  projectToPsd(H, EigenvalueFilter::None, 1.0);
  EXPECT_EQ(H, before);
}

TEST(PsdProjection, AlreadyAdmissibleMatrixIsBitwiseUnchanged) {
  std::mt19937 rng(4);
  const Mat12 Q = randomOrthogonal(rng);
  Vec12 l;
  l << 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 2.0, 3.0;
  const Mat12 H0 = Q * l.asDiagonal() * Q.transpose();
  for (EigenvalueFilter f : {EigenvalueFilter::Clamp, EigenvalueFilter::Abs}) {
    Mat12 H = H0;
    projectToPsd(H, f, 1e-3);
    EXPECT_EQ(H, H0);
  }
  // ...but Clamp with eps above the smallest eigenvalue does change it.
  Mat12 H = H0;
  projectToPsd(H, EigenvalueFilter::Clamp, 0.15);
  const Eigen::SelfAdjointEigenSolver<Mat12> eig(H);
  EXPECT_NEAR(eig.eigenvalues()(0), 0.15, 1e-13);
  EXPECT_NEAR(eig.eigenvalues()(1), 0.2, 1e-13);
}

TEST(PsdProjection, DynamicAndBlockVersionsMatchFixedSize) {
  const Spectrum s = testSpectrum(5);
  for (EigenvalueFilter f : {EigenvalueFilter::Clamp, EigenvalueFilter::Abs}) {
    Mat12 fixed = s.matrix();
    projectToPsd(fixed, f, 1e-2);
    Eigen::MatrixXd dynamic = s.matrix();
    projectToPsd(dynamic, f, 1e-2);
    EXPECT_LT((dynamic - fixed).norm(), 1e-13 * fixed.norm());
    Eigen::MatrixXd big = Eigen::MatrixXd::Constant(14, 14, 5.0);
    big.block(1, 2, 12, 12) = s.matrix();
    projectToPsd(big.block(1, 2, 12, 12), f, 1e-2);
    EXPECT_LT((big.block(1, 2, 12, 12) - fixed).norm(), 1e-13 * fixed.norm());
    EXPECT_EQ(big(0, 0), 5.0);
    EXPECT_EQ(big(13, 1), 5.0);
  }
}

TEST(PsdProjection, NonSquareBlockIsRejected) {
  Eigen::MatrixXd A = Eigen::MatrixXd::Identity(3, 4);
  EXPECT_THROW(projectToPsd(Eigen::Ref<Eigen::MatrixXd>(A), EigenvalueFilter::Abs, 0.0), std::invalid_argument);
}

TEST(PsdProjection, ParseEigenvalueFilter) {
  EXPECT_EQ(parseEigenvalueFilter("none", "solver.filter"), EigenvalueFilter::None);
  EXPECT_EQ(parseEigenvalueFilter("clamp", "solver.filter"), EigenvalueFilter::Clamp);
  EXPECT_EQ(parseEigenvalueFilter("abs", "solver.filter"), EigenvalueFilter::Abs);
  EXPECT_EQ(parseEigenvalueFilter("adaptive", "solver.filter"), EigenvalueFilter::Adaptive);
  EXPECT_EQ(parseEigenvalueFilter("exact_first", "solver.filter"), EigenvalueFilter::ExactFirst);
  for (EigenvalueFilter f : {EigenvalueFilter::None, EigenvalueFilter::Clamp, EigenvalueFilter::Abs,
                             EigenvalueFilter::Adaptive, EigenvalueFilter::ExactFirst})
    EXPECT_EQ(parseEigenvalueFilter(eigenvalueFilterName(f), "x"), f);
  for (const char* bad : {"Abs", "absolute", "", "project"}) {
    try {
      parseEigenvalueFilter(bad, "solver.eigenvalue_filter");
      FAIL() << "accepted '" << bad << "'";
    } catch (const InputError& e) {
      const std::string msg = e.what();
      EXPECT_NE(msg.find("solver.eigenvalue_filter"), std::string::npos) << msg;
      EXPECT_NE(msg.find("'" + std::string(bad) + "'"), std::string::npos) << msg;
      EXPECT_NE(msg.find("clamp"), std::string::npos) << msg;
    }
  }
}

// Adaptive is abs until the solver trusts its quadratic model, then clamp; the fixed
// filters ignore the request; exact Hessians are never filtered.
TEST(PsdProjection, ElementFilterResolvesTheAdaptiveFilter) {
  using K = HessianKind;
  using F = EigenvalueFilter;
  EXPECT_EQ(elementFilter(F::Adaptive, K::Filtered), F::Abs);
  EXPECT_EQ(elementFilter(F::Adaptive, K::FilteredModelTrusted), F::Clamp);
  EXPECT_EQ(elementFilter(F::Adaptive, K::Exact), F::None);
  // Exact first falls back to clamp.
  EXPECT_EQ(elementFilter(F::ExactFirst, K::Filtered), F::Clamp);
  EXPECT_EQ(elementFilter(F::ExactFirst, K::FilteredModelTrusted), F::Clamp);
  EXPECT_EQ(elementFilter(F::ExactFirst, K::Exact), F::None);
  for (F f : {F::None, F::Clamp, F::Abs}) {
    EXPECT_EQ(elementFilter(f, K::Filtered), f);
    EXPECT_EQ(elementFilter(f, K::FilteredModelTrusted), f);
    EXPECT_EQ(elementFilter(f, K::Exact), F::None);
  }
  Mat12 H = Mat12::Identity();
  EXPECT_THROW(projectToPsd<12>(H, F::Adaptive, 0.0), std::invalid_argument);
  EXPECT_THROW(projectToPsd<12>(H, F::ExactFirst, 0.0), std::invalid_argument);
  Eigen::MatrixXd D = Eigen::MatrixXd::Identity(3, 3);
  EXPECT_THROW(projectToPsd(Eigen::Ref<Eigen::MatrixXd>(D), F::Adaptive, 0.0), std::invalid_argument);
}

}  // namespace
}  // namespace softfit
