// The PD Laplacian: symmetric, PSD, translations in its null space, equal to the ARAP
// Hessian at rest (k = 2 mu).
#include "forward/nonlinear/elastic_laplacian.h"

#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>

#include "forward/errors.h"
#include "forward/mesh/procedural_box.h"
#include "support/box_model.h"

namespace softfit {
namespace {

TEST(ElasticLaplacian, IsTheArapHessianAtRestAndAnnihilatesTranslations) {
  const TetMesh mesh = makeBoxMesh(Vec3::Zero(), Vec3(1, 1, 1), 2, 1, 1);
  auto model = testing::makeBoxModel(mesh, MaterialModel::ARAP, 1e3, 0.3, 1);
  const MatX L = MatX(elasticLaplacian(*model));
  EXPECT_LT((L - L.transpose()).norm(), 1e-12 * L.norm());
  VecX t(L.rows());
  for (int i = 0; i < model->nodeCount(); ++i) t.segment<3>(3 * i) = Vec3(0.3, -1.0, 2.0);
  EXPECT_LT((L * t).norm(), 1e-12 * L.norm() * t.norm());
  EXPECT_GT(Eigen::SelfAdjointEigenSolver<MatX>(L).eigenvalues()(0), -1e-10 * L.norm());
  // ARAP's Hessian at rest: 2 mu on the strain part, 0 on rotations; the Laplacian (k = 2 mu)
  // agrees on every stretch mode, e.g. a uniform dilation x -> 1.1 x.
  SparseMatrix K = model->pattern().zeroMatrix();
  model->assembleStiffness(model->restPositions(), K);
  const VecX d = 0.1 * model->restPositions();
  EXPECT_NEAR(d.dot(L * d), d.dot(MatX(K) * d), 1e-10 * d.dot(L * d));
  EXPECT_DOUBLE_EQ(laplacianStiffness(MaterialModel::Corotated, {2.0, 3.0}), 7.0);
  EXPECT_DOUBLE_EQ(projectiveDynamicsStiffness(MaterialModel::ARAP, {2.0, 3.0}), 4.0);
  EXPECT_DOUBLE_EQ(projectiveDynamicsStiffness(MaterialModel::Corotated, {2.0, 3.0}), 13.0);
  EXPECT_THROW(projectiveDynamicsStiffness(MaterialModel::NeoHookean, {2.0, 3.0}), InputError);
}

TEST(ElasticLaplacian, ProjectiveDynamicsWeightBoundsTheCorotatedRestHessian) {
  // k = 2 mu + 3 lambda: k L - K(rest) is PSD for the corotated material (lambda tr(dF)^2
  // <= 3 lambda ||dF||^2), and tight for a uniform dilation (tr(dF)^2 = 3 ||dF||^2).
  const TetMesh mesh = makeBoxMesh(Vec3::Zero(), Vec3(1, 1, 1), 2, 1, 1);
  auto model = testing::makeBoxModel(mesh, MaterialModel::Corotated, 1e3, 0.4, 1);
  const MatX L = MatX(elasticLaplacian(*model, 1.0, LaplacianWeights::ProjectiveDynamics));
  SparseMatrix K = model->pattern().zeroMatrix();
  model->assembleStiffness(model->restPositions(), K);
  EXPECT_GT(Eigen::SelfAdjointEigenSolver<MatX>(L - MatX(K)).eigenvalues()(0), -1e-9 * L.norm());
  const VecX d = 0.1 * model->restPositions();
  EXPECT_NEAR(d.dot(L * d), d.dot(MatX(K) * d), 1e-10 * d.dot(L * d));
}

}  // namespace
}  // namespace softfit
