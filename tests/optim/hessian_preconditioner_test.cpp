// The finite-difference Hessian preconditioner (optim/hessian_preconditioner.h) and
// minimize() with OptimizerOptions::hessianPreconditioner.
#include "optim/hessian_preconditioner.h"

#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>
#include <cmath>

#include "forward/errors.h"
#include "optim/optimizer.h"

namespace softfit {
namespace {

// f = 1/2 (q - c)^T A (q - c) with A badly scaled and correlated (condition ~1e6), like a
// fit of E against nu and the damping coefficients.
struct Quadratic {
  MatX A;
  VecX c;
  int evaluations = 0;
  Quadratic() : A(4, 4), c(4) {
    MatX B(4, 4);
    B << 1.0, 0.99, 0.0, 0.0,  //
        0.99, 1.0, 0.0, 0.0,   //
        0.0, 0.0, 1e-4, 0.0,   //
        0.0, 0.0, 0.0, 10.0;
    const VecX s = (VecX(4) << 100.0, 1.0, 1.0, 0.1).finished();
    A = s.asDiagonal() * B * s.asDiagonal();
    c << 0.3, -0.2, 0.5, 1.0;
  }
  double operator()(const VecX& q, VecX& g) {
    ++evaluations;
    g = A * (q - c);
    return 0.5 * (q - c).dot(g);
  }
};

TEST(HessianPreconditioner, FiniteDifferenceHessianOfAQuadraticIsItsMatrix) {
  Quadratic f;
  const VecX q0 = VecX::Zero(4);
  VecX g0;
  f(q0, g0);
  MatX H;
  const GradientAt gradientAt = [&](const VecX& q, VecX& g) {
    f(q, g);
    return true;
  };
  ASSERT_TRUE(finiteDifferenceHessian(gradientAt, q0, g0, 1e-3, H));
  EXPECT_LT((H - f.A).norm(), 1e-9 * f.A.norm());
  EXPECT_EQ(f.evaluations, 5);  // q0 and one per parameter
}

TEST(HessianPreconditioner, FailedPointsAreSteppedAroundOrReported) {
  Quadratic f;
  const VecX q0 = VecX::Zero(4);
  VecX g0;
  f(q0, g0);
  MatX H;
  // Coordinate 2 cannot be evaluated above q0: the column comes from the step below.
  const GradientAt upFails = [&](const VecX& q, VecX& g) {
    if (q[2] > 0.0) return false;
    f(q, g);
    return true;
  };
  ASSERT_TRUE(finiteDifferenceHessian(upFails, q0, g0, 1e-3, H));
  EXPECT_LT((H - f.A).norm(), 1e-9 * f.A.norm());
  const GradientAt bothFail = [&](const VecX& q, VecX& g) {
    if (q[2] != 0.0) return false;
    f(q, g);
    return true;
  };
  EXPECT_FALSE(finiteDifferenceHessian(bothFail, q0, g0, 1e-3, H));
}

TEST(HessianPreconditioner, WhitensTheHessianWithAbsoluteAndFlooredEigenvalues) {
  const Quadratic f;
  const VecX q0 = VecX::Constant(4, 0.25);
  const LinearPreconditioner p = hessianPreconditioner(f.A, q0, 1e-12);
  EXPECT_LT((p.transform.transpose() * f.A * p.transform - MatX::Identity(4, 4)).norm(), 1e-8);
  EXPECT_LT((p.transform * p.inverse - MatX::Identity(4, 4)).norm(), 1e-10);
  const VecX u = (VecX(4) << 1.0, -2.0, 0.5, 3.0).finished();
  EXPECT_LT((p.fromInternal(p.toInternal(u)) - u).norm(), 1e-10);
  EXPECT_EQ(p.toInternal(VecX::Zero(4)), q0);

  // Indefinite: eigenvalues diag(4, -1) become (4, 1).
  MatX indefinite(2, 2);
  indefinite << 4.0, 0.0, 0.0, -1.0;
  const LinearPreconditioner q = hessianPreconditioner(indefinite, VecX::Zero(2), 1e-6);
  EXPECT_NEAR(q.transform.col(0).norm(), 1.0, 1e-12);  // eigenvalue -1: |-1| = 1
  EXPECT_NEAR(q.transform.col(1).norm(), 0.5, 1e-12);  // eigenvalue 4
  // A flat direction is bounded by the floor: eigenvalues (1, 0) with floor 1e-4 -> 1e-4.
  MatX flat(2, 2);
  flat << 1.0, 0.0, 0.0, 0.0;
  const LinearPreconditioner r = hessianPreconditioner(flat, VecX::Zero(2), 1e-4);
  EXPECT_NEAR(r.transform.col(0).norm(), 100.0, 1e-9);

  EXPECT_THROW(hessianPreconditioner(MatX::Zero(2, 2), VecX::Zero(2), 1e-6), std::invalid_argument);
  MatX nan = MatX::Identity(2, 2);
  nan(0, 1) = NAN;
  EXPECT_THROW(hessianPreconditioner(nan, VecX::Zero(2), 1e-6), std::invalid_argument);
}

TEST(HessianPreconditioner, MinimizesABadlyScaledQuadraticInAFewIterations) {
  for (OptimizerKind kind : {OptimizerKind::Lbfgs, OptimizerKind::BarzilaiBorwein, OptimizerKind::Ceres,
                            OptimizerKind::GradientOnlyLbfgs}) {
    OptimizerOptions options;
    options.kind = kind;
    options.maxIterations = 30;
    options.gradientTolerance = 1e-10;
    options.relativeCostTolerance = 0.0;
    Quadratic plainF;
    const OptimizationResult plain = minimize(std::ref(plainF), VecX::Zero(4), options);
    options.hessianPreconditioner = true;
    Quadratic f;
    std::vector<IterationRecord> seen;
    const OptimizationResult r =
        minimize(std::ref(f), VecX::Zero(4), options, [&](const IterationRecord& record) { seen.push_back(record); });
    const std::string name = optimizerKindName(kind);
    EXPECT_LT((r.point - f.c).norm(), 1e-6) << name << ": " << r.stopReason;
    EXPECT_LE(r.iterations, 8) << name;
    // Without the preconditioner 30 iterations do not get there.
    EXPECT_GT((plain.point - plainF.c).norm(), 100.0 * (r.point - f.c).norm()) << name;
    // Everything reported is in q: points, |dL/dq|, and the Hessian's evaluations counted.
    EXPECT_EQ(r.evaluations, f.evaluations) << name;
    ASSERT_FALSE(seen.empty());
    EXPECT_EQ(seen.front().point, VecX::Zero(4)) << name;
    for (const IterationRecord& record : seen) {
      VecX g;
      Quadratic check;
      check(record.point, g);
      EXPECT_NEAR(record.gradientNorm, g.cwiseAbs().maxCoeff(), 1e-9 * (1.0 + g.cwiseAbs().maxCoeff())) << name;
      EXPECT_GE(record.evaluations, 5) << name;
    }
    ASSERT_EQ(r.history.size(), seen.size()) << name;
    EXPECT_EQ(r.history.back().point, seen.back().point) << name;
  }
}

// f = 1/2 sum_i w_i (exp(s_i (R q)_i) - 1)^2: badly scaled (w), correlated (R), and its
// curvature grows like exp(2 s_i (R q)_i) away from the minimum q = 0, so the Hessian at a
// start far uphill describes the minimum badly (like a fit started 25% off in E).
struct CurvingValley {
  MatX R;
  VecX w, s;
  int evaluations = 0;
  CurvingValley() : R(3, 3), w(3), s(3) {
    R << 1.0, 0.9, 0.0,  //
        0.0, 1.0, 0.5,   //
        0.2, 0.0, 1.0;
    w << 1e4, 1.0, 1e-2;
    s << 1.0, 1.5, 2.0;
  }
  double operator()(const VecX& q, VecX& g) {
    ++evaluations;
    const VecX x = R * q;
    VecX dx(3);
    double f = 0.0;
    for (int i = 0; i < 3; ++i) {
      const double e = std::exp(s[i] * x[i]), r = e - 1.0;
      f += 0.5 * w[i] * r * r;
      dx[i] = w[i] * r * s[i] * e;
    }
    g = R.transpose() * dx;
    return f;
  }
};

TEST(HessianPreconditioner, ReTakenHessianConvergesWhereTheStartsOneDoesNot) {
  const VecX q0 = (VecX(3) << 0.8, 0.2, 0.9).finished();
  for (OptimizerKind kind : {OptimizerKind::BarzilaiBorwein, OptimizerKind::Lbfgs}) {
    const std::string name = optimizerKindName(kind);
    OptimizerOptions options;
    options.kind = kind;
    options.maxIterations = 10;
    options.gradientTolerance = 1e-12;
    options.relativeCostTolerance = 0.0;
    options.hessianPreconditioner = true;
    options.hessian.step = 1e-6;
    CurvingValley once;
    const OptimizationResult startOnly = minimize(std::ref(once), q0, options);
    options.hessian.refreshEvery = 1;
    CurvingValley f;
    std::vector<IterationRecord> seen;
    const OptimizationResult r =
        minimize(std::ref(f), q0, options, [&](const IterationRecord& record) { seen.push_back(record); });
    EXPECT_LT(r.point.norm(), 1e-8) << name << ": " << r.stopReason;
    EXPECT_GT(startOnly.point.norm(), 100.0 * r.point.norm()) << name << ": " << startOnly.stopReason;
    EXPECT_NE(r.stopReason.find("Hessian re-taken"), std::string::npos) << r.stopReason;
    // One record per iteration, in order, evaluations (3 per re-take included) rising, in q.
    ASSERT_EQ(static_cast<int>(seen.size()), r.iterations + 1) << name;
    ASSERT_EQ(r.history.size(), seen.size()) << name;
    EXPECT_EQ(seen.front().point, q0) << name;
    for (size_t k = 0; k < seen.size(); ++k) {
      EXPECT_EQ(seen[k].iteration, static_cast<int>(k)) << name;
      EXPECT_EQ(r.history[k].point, seen[k].point) << name;
      if (k > 0) {
        EXPECT_GE(seen[k].evaluations, seen[k - 1].evaluations + (k > 1 ? 4 : 1)) << name << " " << k;
      }
      VecX g;
      CurvingValley check;
      const double cost = check(seen[k].point, g);
      EXPECT_EQ(seen[k].cost, cost) << name;
      EXPECT_NEAR(seen[k].gradientNorm, g.cwiseAbs().maxCoeff(), 1e-12 * (1.0 + g.cwiseAbs().maxCoeff())) << name;
    }
    EXPECT_EQ(r.evaluations, f.evaluations) << name;
  }
}

TEST(HessianPreconditioner, GaussNewtonMatrixOfLinearResidualsIsJTransposeJ) {
  MatX A(5, 3);
  A << 1.0, 2.0, 0.0,  //
      0.0, 1e-3, 4.0,  //
      3.0, 0.0, 1.0,   //
      0.5, 0.5, 0.5,   //
      0.0, 7.0, 0.0;
  const VecX b = (VecX(5) << 1.0, -2.0, 0.5, 0.0, 3.0).finished();
  int calls = 0;
  ResidualFunction residuals = [&](const VecX& q) {
    ++calls;
    return VecX(A * q - b);
  };
  MatX H;
  int runs = 0;
  ASSERT_TRUE(gaussNewtonHessian(residuals, VecX::Ones(3), 1e-3, H, runs));
  EXPECT_LT((H - A.transpose() * A).norm(), 1e-10 * (A.transpose() * A).norm());
  EXPECT_EQ(runs, 4);  // r(q0) and one per parameter
  EXPECT_EQ(calls, 4);

  // Coordinate 1 fails above q0: the column comes from below. Both sides failing, or a
  // residual vector that changes length, is reported.
  runs = 0;
  residuals = [&](const VecX& q) {
    if (q[1] > 1.0) throw SolveError("step 3 of 40 failed");
    return VecX(A * q - b);
  };
  ASSERT_TRUE(gaussNewtonHessian(residuals, VecX::Ones(3), 1e-3, H, runs));
  EXPECT_LT((H - A.transpose() * A).norm(), 1e-10 * (A.transpose() * A).norm());
  EXPECT_EQ(runs, 5);
  residuals = [&](const VecX& q) {
    if (q[1] != 1.0) throw SolveError("step 3 of 40 failed");
    return VecX(A * q - b);
  };
  EXPECT_FALSE(gaussNewtonHessian(residuals, VecX::Ones(3), 1e-3, H, runs));
  residuals = [&](const VecX& q) { return q[2] != 1.0 ? VecX(2) : VecX(A * q - b); };
  EXPECT_FALSE(gaussNewtonHessian(residuals, VecX::Ones(3), 1e-3, H, runs));
  residuals = [&](const VecX&) { return VecX::Constant(5, NAN).eval(); };
  EXPECT_FALSE(gaussNewtonHessian(residuals, VecX::Ones(3), 1e-3, H, runs));
}

// Rosenbrock's valley as residuals: r = (10 (q1 - q0^2), 1 - q0), minimum (1, 1). Its
// curved valley is where Newton steps of the cost's quadratic model cut across and need
// many halvings; Gauss-Newton steps model the residuals linearly and follow it.
struct RosenbrockResiduals {
  int evaluations = 0, residualRuns = 0;
  VecX residuals(const VecX& q) {
    ++residualRuns;
    return (VecX(2) << 10.0 * (q[1] - q[0] * q[0]), 1.0 - q[0]).finished();
  }
  double operator()(const VecX& q, VecX& g) {
    ++evaluations;
    const VecX r = (VecX(2) << 10.0 * (q[1] - q[0] * q[0]), 1.0 - q[0]).finished();
    g.resize(2);
    g << -20.0 * q[0] * r[0] - r[1], 10.0 * r[0];
    return 0.5 * r.squaredNorm();
  }
};

// The Hessian re-taken every iteration (Newton, or Gauss-Newton with residuals set).
OptimizerOptions reTakenHessianOptions(OptimizerKind kind, int maxIterations, double gradientTolerance) {
  OptimizerOptions options;
  options.kind = kind;
  options.maxIterations = maxIterations;
  options.gradientTolerance = gradientTolerance;
  options.relativeCostTolerance = 0.0;
  options.hessianPreconditioner = true;
  options.hessian.refreshEvery = 1;
  options.hessian.step = 1e-7;
  options.hessian.floor = 1e-12;
  return options;
}

TEST(HessianPreconditioner, GaussNewtonStepsFollowACurvedValleyThatNewtonStepsCutAcross) {
  const VecX q0 = (VecX(2) << -1.2, 1.0).finished(), solution = VecX::Ones(2);
  for (OptimizerKind kind : {OptimizerKind::BarzilaiBorwein, OptimizerKind::Lbfgs}) {
    const std::string name = optimizerKindName(kind);
    // Gauss-Newton needs 13 iterations (steps capped at 0.5 in q), Newton ~20.
    OptimizerOptions options = reTakenHessianOptions(kind, 14, 1e-14);
    RosenbrockResiduals newtonF;
    const OptimizationResult newton = minimize(std::ref(newtonF), q0, options);
    RosenbrockResiduals f;
    options.hessian.gaussNewtonResiduals = [&](const VecX& q) { return f.residuals(q); };
    const OptimizationResult r = minimize(std::ref(f), q0, options);
    EXPECT_LT((r.point - solution).norm(), 1e-8) << name << ": " << r.stopReason;
    EXPECT_GT((newton.point - solution).norm(), 0.1) << name << ": " << newton.stopReason;
    // The Jacobian's runs are counted apart from the objective's evaluations.
    EXPECT_EQ(r.residualEvaluations, f.residualRuns) << name;
    EXPECT_GE(r.residualEvaluations, 3) << name;
    EXPECT_EQ(r.evaluations, f.evaluations) << name;
    EXPECT_EQ(newton.residualEvaluations, 0) << name;
  }
}

// At the end of a fit the Hessian's coordinates can meet the inner optimizer's gradient
// test while |dL/dq| is still above the tolerance: that stage does not move, and
// re-taking the Hessian at the same point would repeat it until the iteration cap.
TEST(HessianPreconditioner, StopsWhenAStageDoesNotMove) {
  const VecX q0 = (VecX(2) << -1.2, 1.0).finished();
  for (OptimizerKind kind : {OptimizerKind::BarzilaiBorwein, OptimizerKind::Lbfgs}) {
    const std::string name = optimizerKindName(kind);
    OptimizerOptions options = reTakenHessianOptions(kind, 100, 1e-10);
    RosenbrockResiduals f;
    options.hessian.gaussNewtonResiduals = [&](const VecX& q) { return f.residuals(q); };
    const OptimizationResult r = minimize(std::ref(f), q0, options);
    EXPECT_LT((r.point - VecX::Ones(2)).norm(), 1e-8) << name << ": " << r.stopReason;
    EXPECT_TRUE(r.converged) << name << ": " << r.stopReason;
    EXPECT_LT(r.iterations, 30) << name << ": " << r.stopReason;
    EXPECT_EQ(static_cast<int>(r.history.size()), r.iterations + 1) << name;
  }
}

TEST(HessianPreconditioner, FallsBackWithAReasonWhereItCannotBeUsed) {
  OptimizerOptions options;
  options.hessianPreconditioner = true;
  options.kind = OptimizerKind::LbfgsB;
  Quadratic f;
  OptimizationResult r = minimize(std::ref(f), VecX::Zero(4), options);
  EXPECT_NE(r.stopReason.find("Hessian preconditioner not used"), std::string::npos) << r.stopReason;

  // A forward solve fails on both sides of the start in coordinate 1.
  options.kind = OptimizerKind::Lbfgs;
  auto failing = [](const VecX& q, VecX& g) {
    if (q[1] != 0.0 && std::abs(q[1]) < 0.01) throw SolveError("step 2 of 10 failed");
    g = 2.0 * (q - VecX::Constant(2, 0.5));
    return (q - VecX::Constant(2, 0.5)).squaredNorm();
  };
  r = minimize(failing, VecX::Zero(2), options);
  EXPECT_NE(r.stopReason.find("Hessian preconditioner not used: a forward solve failed"), std::string::npos)
      << r.stopReason;
  EXPECT_FALSE(r.solveFailed);  // the plain run from the start never hit the failing band's interior
}

}  // namespace
}  // namespace softfit
