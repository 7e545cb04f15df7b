// The closed-form stable neo-Hookean eigensystem against SelfAdjointEigenSolver on
// dP/dF, and the analytic projected element Hessians against the numeric path.
#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <random>

#include "forward/materials/stable_neo_hookean_material.h"
#include "forward/math/psd_projection.h"
#include "forward/mesh/procedural_box.h"
#include "forward/energies/stable_neo_hookean_projection.h"
#include "support/box_model.h"

namespace softfit {
namespace {

Mat3 randomF(std::mt19937& rng, double scale) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  Mat3 m;
  for (int k = 0; k < 9; ++k) m(k) = scale * u(rng);
  return Mat3::Identity() + m;
}

// Stretched, compressed, near-rest and inverted deformation gradients.
std::vector<Mat3> testGradients() {
  std::mt19937 rng(7);
  std::vector<Mat3> Fs = {Mat3::Identity(), Vec3(3.0, 0.6, 0.6).asDiagonal(), Vec3(0.4, 0.5, 1.2).asDiagonal(),
                          Vec3(1.0, 1.0, -0.5).asDiagonal()};
  for (int i = 0; i < 12; ++i) Fs.push_back(randomF(rng, i < 6 ? 0.4 : 1.5));
  return Fs;
}

TEST(StableNeoHookeanEigensystem, MatchesSelfAdjointEigenSolverAndReconstructsDPdF) {
  const StableNeoHookeanMaterial material;
  const LameParameters p = lameFromYoungPoisson(1e4, 0.45);
  for (const Mat3& F : testGradients()) {
    const Mat9 H = material.firstPiolaDerivative(F, p);
    const MaterialEigensystem eig = stableNeoHookeanEigensystem(F, p);
    const double scale = H.norm();
    EXPECT_LT((eig.vectors.transpose() * eig.vectors - Mat9::Identity()).norm(), 1e-10);
    EXPECT_LT((eig.vectors * eig.values.asDiagonal() * eig.vectors.transpose() - H).norm(), 1e-10 * scale)
        << "F =\n" << F;
    Vec9 analytic = eig.values;
    std::sort(analytic.data(), analytic.data() + 9);
    const Eigen::SelfAdjointEigenSolver<Mat9> numeric(H);
    EXPECT_LT((analytic - numeric.eigenvalues()).norm(), 1e-10 * scale) << "F =\n" << F;
  }
}

TEST(StableNeoHookeanEigensystem, FilteredDerivativeMatchesNumericProjection) {
  const StableNeoHookeanMaterial material;
  const LameParameters p = lameFromYoungPoisson(1e4, 0.495);
  int indefinite = 0;
  for (const Mat3& F : testGradients()) {
    const Mat9 H = material.firstPiolaDerivative(F, p);
    indefinite += Eigen::SelfAdjointEigenSolver<Mat9>(H).eigenvalues()(0) < 0.0;
    for (EigenvalueFilter filter : {EigenvalueFilter::None, EigenvalueFilter::Clamp, EigenvalueFilter::Abs}) {
      Mat9 expected = H;
      projectToPsd<9>(expected, filter, 0.0);
      const Mat9 analytic = filteredStableNeoHookeanDerivative(F, p, filter, 0.0);
      EXPECT_LT((analytic - expected).norm(), 1e-9 * H.norm()) << eigenvalueFilterName(filter) << " F =\n" << F;
      if (filter != EigenvalueFilter::None) {
        EXPECT_GE(Eigen::SelfAdjointEigenSolver<Mat9>(analytic).eigenvalues()(0), -1e-9 * H.norm());
      }
    }
  }
  EXPECT_GE(indefinite, 3);  // the test really exercises the filter
}

TEST(StableNeoHookeanEigensystem, UnfilteredElementHessiansEqualTheExactOnes) {
  const TetMesh mesh = makeBoxMesh(Vec3::Zero(), Vec3(2, 1, 1), 2, 1, 1);
  auto model = testing::makeBoxModel(mesh, MaterialModel::StableNeoHookean, 1e4, 0.45, 1000);
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> u(-0.3, 0.3);
  VecX x = model->restPositions();
  for (int i = 0; i < x.size(); ++i) x[i] += u(rng);
  SparseMatrix exact = model->pattern().zeroMatrix(), analytic = exact;
  BlockAssembler a(model->pattern(), exact), b(model->pattern(), analytic);
  model->elastic().addHessian(x, a, EigenvalueFilter::None);
  addStableNeoHookeanProjectedHessian(model->elastic(), x, b, EigenvalueFilter::None, 0.0);
  EXPECT_LT(MatX(analytic - exact).norm(), 1e-10 * MatX(exact).norm());
}

}  // namespace
}  // namespace softfit
