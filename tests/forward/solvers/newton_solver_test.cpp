// NewtonSolver: adaptive (trust-region) eigenvalue filtering (Chen et al. SIGGRAPH Asia
// 2024: the solver asks for the model-trusted Hessian exactly after steps whose actual
// decrease matched the exact quadratic model's prediction), exact-first Hessians, the
// watchdog line search, the relative gradient stopping rule and the last factorization.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "forward/solvers/newton_solver.h"

namespace softfit {
namespace {

// f(x) = sum_i (x_i^4 / 4 + x_i^2 / 2): convex, its quadratic model is poor far from the
// minimum (x = 0) and exact in the limit. Records every Hessian request.
class QuarticObjective final : public NewtonObjective {
 public:
  explicit QuarticObjective(bool adaptive) : adaptive_(adaptive) {}
  double value(const VecX& x) override { return (0.25 * x.array().pow(4) + 0.5 * x.array().square()).sum(); }
  void gradient(const VecX& x, VecX& g) override { g = (x.array().cube() + x.array()).matrix(); }
  void hessian(const VecX& x, SparseMatrix& H, HessianKind kind) override {
    requests.push_back(kind);
    for (int i = 0; i < x.size(); ++i) H.coeffRef(i, i) = 3.0 * x[i] * x[i] + 1.0;
  }
  SparseMatrix hessianPattern() const override {
    SparseMatrix H(2, 2);
    H.setIdentity();
    return H;
  }
  bool adaptiveFilter() const override { return adaptive_; }

  std::vector<HessianKind> requests;

 private:
  bool adaptive_;
};

// The kinds asked for the step direction (every other request is the exact Hessian for
// the trust-region ratio).
std::vector<HessianKind> directionRequests(const std::vector<HessianKind>& requests) {
  std::vector<HessianKind> out;
  for (size_t k = 0; k < requests.size(); k += 2) out.push_back(requests[k]);
  return out;
}

NewtonOptions options() {
  NewtonOptions o;
  o.stepTolerance = 0.0;
  o.exactHessianBelow = 0.0;
  o.gradientTolerance = 1e-12;
  return o;
}

// Minimizes from (10, -7), far from the minimum; checks it converged to it.
NewtonResult minimizeFromFar(QuarticObjective& objective) {
  NewtonSolver solver(options());
  VecX x(2);
  x << 10.0, -7.0;
  const NewtonResult r = solver.minimize(objective, x, DofMask(2, false));
  EXPECT_TRUE(r.converged);
  EXPECT_LT(x.norm(), 1e-10);
  return r;
}

TEST(NewtonSolver, AdaptiveFilterTrustsTheModelOnlyNearTheMinimum) {
  QuarticObjective objective(true);
  const NewtonResult r = minimizeFromFar(objective);
  // Each iteration: the direction's Hessian, then the exact one for the ratio (the last
  // iteration stops on the gradient before asking).
  ASSERT_EQ(objective.requests.size(), 2u * r.iterations);
  for (size_t k = 1; k < objective.requests.size(); k += 2) EXPECT_EQ(objective.requests[k], HessianKind::Exact);
  const std::vector<HessianKind> kinds = directionRequests(objective.requests);
  // Far away (x = 10: rho = 1.2 for the first step) the model is not trusted...
  ASSERT_GE(kinds.size(), 3u);
  EXPECT_EQ(kinds[0], HessianKind::Filtered);
  EXPECT_EQ(kinds[1], HessianKind::Filtered);
  // ...near the minimum it is.
  EXPECT_EQ(kinds.back(), HessianKind::FilteredModelTrusted);
}

TEST(NewtonSolver, FixedFiltersNeverAskForTheTrustedOrTheExactHessian) {
  QuarticObjective objective(false);
  const NewtonResult r = minimizeFromFar(objective);
  ASSERT_EQ(objective.requests.size(), size_t(r.iterations));
  for (HessianKind kind : objective.requests) EXPECT_EQ(kind, HessianKind::Filtered);
}

// f(x) = sum_i (x_i^4 / 4 - x_i^2 / 2): nonconvex between the minima x_i = +-1; the exact
// Hessian 3 x^2 - 1 is indefinite for |x_i| < 1/sqrt(3), where "Filtered" clamps it to 1.
class DoubleWellObjective final : public NewtonObjective {
 public:
  double value(const VecX& x) override { return (0.25 * x.array().pow(4) - 0.5 * x.array().square()).sum(); }
  void gradient(const VecX& x, VecX& g) override { g = (x.array().cube() - x.array()).matrix(); }
  void hessian(const VecX& x, SparseMatrix& H, HessianKind kind) override {
    requests.push_back(kind);
    for (int i = 0; i < x.size(); ++i) {
      const double h = 3.0 * x[i] * x[i] - 1.0;
      H.coeffRef(i, i) = kind == HessianKind::Exact ? h : std::max(h, 1.0);
    }
  }
  SparseMatrix hessianPattern() const override {
    SparseMatrix H(2, 2);
    H.setIdentity();
    return H;
  }
  bool exactHessianFirst() const override { return exactFirst; }

  bool exactFirst = true;
  std::vector<HessianKind> requests;
};

NewtonResult minimizeDoubleWell(DoubleWellObjective& objective, VecX& x) {
  NewtonSolver solver(options());
  const NewtonResult r = solver.minimize(objective, x, DofMask(2, false));
  EXPECT_TRUE(r.converged);
  EXPECT_NEAR(std::abs(x[0]), 1.0, 1e-10);
  EXPECT_NEAR(std::abs(x[1]), 1.0, 1e-10);
  return r;
}

TEST(NewtonSolver, ExactFirstUsesTheExactHessianWhereItIsPositiveDefinite) {
  DoubleWellObjective objective;
  VecX x(2);
  x << 3.0, -2.0;  // H = diag(26, 11), positive definite all the way to the minima
  const NewtonResult r = minimizeDoubleWell(objective, x);
  EXPECT_EQ(r.filteredIterations, 0);
  for (HessianKind kind : objective.requests) EXPECT_EQ(kind, HessianKind::Exact);
  // Plain projected Newton needs more iterations: clamping 3 x^2 - 1 to >= 1 is no loss
  // here, but the exact Hessian converges quadratically from the first step on.
  DoubleWellObjective clamped;
  clamped.exactFirst = false;
  VecX y(2);
  y << 3.0, -2.0;
  const NewtonResult rc = minimizeDoubleWell(clamped, y);
  EXPECT_LE(r.iterations, rc.iterations);
  EXPECT_EQ(rc.filteredIterations, rc.iterations);
}

// Newton's last factorization, for sensitivities at the equilibrium: after a converged
// exact step it is the exact Hessian one step before x; a run that stops on the gradient
// test (no final step) leaves none; factorizeExactHessian() sets one, the next
// minimize() drops it.
TEST(NewtonSolver, LastExactFactorizationIsTheHessianOneStepBeforeTheSolution) {
  DoubleWellObjective objective;
  NewtonOptions o = options();
  o.gradientTolerance = 0.0;
  o.stepTolerance = 1e-6;
  NewtonSolver solver(o);
  EXPECT_EQ(solver.lastExactFactorization(), nullptr);
  VecX x(2);
  x << 3.0, -2.0;
  ASSERT_TRUE(solver.minimize(objective, x, DofMask(2, false)).converged);
  VecX at;
  const CholeskySolver* factor = solver.lastExactFactorization(&at);
  ASSERT_NE(factor, nullptr);
  EXPECT_GT((x - at).lpNorm<Eigen::Infinity>(), 0.0);
  EXPECT_LE((x - at).lpNorm<Eigen::Infinity>(), 1e-6);
  const VecX b = VecX::Ones(2);
  const VecX solved = factor->solve(b);
  for (int i = 0; i < 2; ++i) EXPECT_NEAR(solved[i], 1.0 / (3.0 * at[i] * at[i] - 1.0), 1e-14);

  NewtonSolver byGradient(options());
  VecX y(2);
  y << 3.0, -2.0;
  ASSERT_TRUE(byGradient.minimize(objective, y, DofMask(2, false)).converged);
  EXPECT_EQ(byGradient.lastExactFactorization(), nullptr);
  SparseMatrix H = objective.hessianPattern();
  objective.hessian(y, H, HessianKind::Exact);
  ASSERT_TRUE(byGradient.factorizeExactHessian(H, y));
  ASSERT_NE(byGradient.lastExactFactorization(&at), nullptr);
  EXPECT_EQ(at, y);
  H.coeffRef(0, 0) = -1.0;
  EXPECT_FALSE(byGradient.factorizeExactHessian(H, y));
  EXPECT_EQ(byGradient.lastExactFactorization(), nullptr);
}

TEST(NewtonSolver, ExactFirstFallsBackToTheFilteredHessianWhereItIsIndefinite) {
  DoubleWellObjective objective;
  VecX x(2);
  x << 0.2, -0.3;  // both coordinates in the concave region: exact Cholesky fails, and the
                   // LDL^T step -H^-1 g climbs towards the maximum at 0
  const NewtonResult r = minimizeDoubleWell(objective, x);
  ASSERT_GE(objective.requests.size(), 2u);
  EXPECT_EQ(objective.requests[0], HessianKind::Exact);
  EXPECT_EQ(objective.requests[1], HessianKind::Filtered);
  EXPECT_GE(r.filteredIterations, 1);
  EXPECT_LT(r.filteredIterations, r.iterations);  // exact again once past the inflection
}

// Where the exact Hessian is indefinite but its Newton step (an LDL^T solve) points
// downhill, exact first takes that step instead of the filtered one.
TEST(NewtonSolver, ExactFirstTakesTheIndefiniteExactStepWhereItDescends) {
  VecX start(2);
  start << 0.5, 3.0;  // H = diag(-0.25, 26): indefinite; g = (-0.375, 24)
  DoubleWellObjective objective;
  VecX x = start;
  NewtonOptions o = options();
  std::vector<NewtonIterationInfo> trace;
  o.trace = [&](const NewtonIterationInfo& i) { trace.push_back(i); };
  const NewtonResult r = NewtonSolver(o).minimize(objective, x, DofMask(2, false));
  ASSERT_TRUE(r.converged);
  // dx = -H^-1 g = (-1.5, -0.92): g.dx = 0.56 - 22.2 < 0; x_0 lands on the minimum -1.
  ASSERT_GE(trace.size(), 2u);
  EXPECT_TRUE(trace[0].exactHessian);
  EXPECT_TRUE(trace[0].indefinite);
  EXPECT_EQ(trace[0].alpha, 1.0);
  EXPECT_EQ(x[0], -1.0);
  EXPECT_NEAR(x[1], 1.0, 1e-10);
  EXPECT_EQ(r.indefiniteIterations, 1);
  EXPECT_EQ(r.filteredIterations, 0);
  for (HessianKind kind : objective.requests) EXPECT_EQ(kind, HessianKind::Exact);
  // Without LDL^T steps the first iteration is a filtered one.
  DoubleWellObjective clamped;
  o.indefiniteExactSteps = false;
  trace.clear();
  VecX y = start;
  const NewtonResult rc = NewtonSolver(o).minimize(clamped, y, DofMask(2, false));
  ASSERT_TRUE(rc.converged);
  ASSERT_GE(trace.size(), 1u);
  EXPECT_FALSE(trace[0].exactHessian);
  EXPECT_EQ(rc.indefiniteIterations, 0);
  EXPECT_GE(rc.filteredIterations, 1);
}

// Where the indefinite exact Hessian's Newton step points uphill, exact first falls back
// to the filtered Hessian: the same iterates as without LDL^T steps, one factorization more.
TEST(NewtonSolver, ExactFirstFiltersWhereTheIndefiniteExactStepAscends) {
  VecX start(2);
  start << 0.2, 1.01;  // H = diag(-0.88, 2.06): indefinite; g = (-0.192, 0.0303)
  NewtonOptions o = options();
  std::vector<NewtonIterationInfo> trace;
  o.trace = [&](const NewtonIterationInfo& i) { trace.push_back(i); };
  DoubleWellObjective objective;
  VecX x = start;
  const NewtonResult r = NewtonSolver(o).minimize(objective, x, DofMask(2, false));
  ASSERT_TRUE(r.converged);
  // dx = -H^-1 g = (-0.22, -0.015): g.dx = 0.042 - 0.0004 > 0.
  ASSERT_GE(trace.size(), 1u);
  ASSERT_GE(objective.requests.size(), 2u);
  EXPECT_EQ(objective.requests[0], HessianKind::Exact);
  EXPECT_EQ(objective.requests[1], HessianKind::Filtered);
  EXPECT_FALSE(trace[0].exactHessian);
  EXPECT_FALSE(trace[0].indefinite);
  EXPECT_EQ(r.indefiniteIterations, 0);
  EXPECT_NEAR(std::abs(x[0]), 1.0, 1e-10);
  EXPECT_NEAR(x[1], 1.0, 1e-10);
  o.indefiniteExactSteps = false;
  DoubleWellObjective clamped;
  VecX y = start;
  const NewtonResult rc = NewtonSolver(o).minimize(clamped, y, DofMask(2, false));
  EXPECT_EQ(rc.iterations, r.iterations);
  EXPECT_EQ(x, y);
  EXPECT_GT(r.factorizations, rc.factorizations);  // the rejected LDL^T solves
}

// Rosenbrock's function (1 - x)^2 + 100 (y - x^2)^2: from (-1.2, 1) the exact Hessian is
// positive definite along Newton's path, whose second full step goes far up the valley
// wall (f ~ 1.4e3 from ~4.7) before the third lands near the minimum (1, 1).
class RosenbrockObjective final : public NewtonObjective {
 public:
  double value(const VecX& p) override {
    return (1 - p[0]) * (1 - p[0]) + 100 * (p[1] - p[0] * p[0]) * (p[1] - p[0] * p[0]);
  }
  void gradient(const VecX& p, VecX& g) override {
    g.resize(2);
    g << -2 * (1 - p[0]) - 400 * p[0] * (p[1] - p[0] * p[0]), 200 * (p[1] - p[0] * p[0]);
  }
  void hessian(const VecX& p, SparseMatrix& H, HessianKind) override {
    H.coeffRef(0, 0) = 2 - 400 * (p[1] - 3 * p[0] * p[0]);
    H.coeffRef(0, 1) = H.coeffRef(1, 0) = -400 * p[0];
    H.coeffRef(1, 1) = 200;
  }
  SparseMatrix hessianPattern() const override {
    SparseMatrix H(2, 2);
    H.insert(0, 0) = H.insert(0, 1) = H.insert(1, 0) = H.insert(1, 1) = 1.0;
    return H;
  }
  bool exactHessianFirst() const override { return true; }
};

// Minimizes from `start` with the given watchdog; returns every iteration's trace.
std::vector<NewtonIterationInfo> traced(NewtonObjective& objective, VecX& x, int watchdog, NewtonResult& r) {
  NewtonOptions o = options();
  o.watchdogSteps = watchdog;
  std::vector<NewtonIterationInfo> trace;
  o.trace = [&](const NewtonIterationInfo& i) { trace.push_back(i); };
  NewtonSolver solver(o);
  r = solver.minimize(objective, x, DofMask(x.size(), false));
  return trace;
}

TEST(NewtonSolver, WatchdogTakesFullStepsUphillWhenTheyPayOffLater) {
  RosenbrockObjective objective;
  VecX x(2), y(2);
  x << -1.2, 1.0;
  y = x;
  NewtonResult watched, backtracked;
  const std::vector<NewtonIterationInfo> trace = traced(objective, x, 3, watched);
  traced(objective, y, 0, backtracked);
  ASSERT_TRUE(watched.converged);
  ASSERT_TRUE(backtracked.converged);
  EXPECT_NEAR(x[0], 1.0, 1e-10);
  EXPECT_NEAR(x[1], 1.0, 1e-10);
  EXPECT_NEAR(y[0], 1.0, 1e-10);
  // Every step is a full one, one of them uphill (f 4.7 -> 1.4e3), and it pays: fewer
  // iterations than backtracking from each full step.
  bool uphill = false;
  double previous = objective.value((VecX(2) << -1.2, 1.0).finished());
  for (const NewtonIterationInfo& i : trace) {
    EXPECT_EQ(i.alpha, 1.0) << "iteration " << i.iteration;
    EXPECT_TRUE(i.exactHessian);
    uphill = uphill || i.value > 100 * previous;
    previous = i.value;
  }
  EXPECT_TRUE(uphill);
  EXPECT_LT(watched.iterations, backtracked.iterations);
}

// f(x) = sqrt(1 + x^2): convex, but the full Newton step x -> -x^3 diverges for |x| > 1,
// so every relaxed step goes further uphill and the watchdog must go back.
class HyperbolaObjective final : public NewtonObjective {
 public:
  double value(const VecX& x) override { return std::sqrt(1 + x[0] * x[0]); }
  void gradient(const VecX& x, VecX& g) override { g = VecX::Constant(1, x[0] / std::sqrt(1 + x[0] * x[0])); }
  void hessian(const VecX& x, SparseMatrix& H, HessianKind) override {
    H.coeffRef(0, 0) = std::pow(1 + x[0] * x[0], -1.5);
  }
  SparseMatrix hessianPattern() const override {
    SparseMatrix H(1, 1);
    H.insert(0, 0) = 1.0;
    return H;
  }
};

TEST(NewtonSolver, WatchdogReturnsToTheReferenceWhenRelaxedStepsKeepGoingUphill) {
  HyperbolaObjective objective;
  VecX x = VecX::Constant(1, 2.0);
  NewtonResult r;
  const std::vector<NewtonIterationInfo> trace = traced(objective, x, 2, r);
  ASSERT_TRUE(r.converged);
  EXPECT_NEAR(x[0], 0.0, 1e-10);
  // Two relaxed full steps (2 -> -8 -> 512), then back to x = 2 and a backtracked step
  // along its Newton step (-10) that decreases f below its value at 2.
  ASSERT_GE(trace.size(), 4u);
  EXPECT_EQ(trace[0].alpha, 1.0);
  EXPECT_NEAR(trace[0].value, std::sqrt(65.0), 1e-12);
  EXPECT_EQ(trace[1].alpha, 1.0);
  EXPECT_LT(trace[2].alpha, 1.0);
  EXPECT_LT(trace[2].value, std::sqrt(5.0));
  for (size_t k = 3; k < trace.size(); ++k) EXPECT_LE(trace[k].value, trace[k - 1].value);
}

TEST(NewtonSolver, RelativeGradientToleranceStopsOnTheResidualRatio) {
  QuarticObjective objective(false);
  NewtonOptions o = options();
  o.gradientTolerance = 0.0;
  o.relativeGradientTolerance = 1e-6;
  NewtonSolver solver(o);
  VecX x(2);
  x << 10.0, -7.0;
  VecX g0;
  objective.gradient(x, g0);
  const NewtonResult r = solver.minimize(objective, x, DofMask(2, false));
  ASSERT_TRUE(r.converged);
  VecX g;
  objective.gradient(x, g);
  EXPECT_LE(g.norm(), 1e-6 * g0.norm());
  // It stopped early: a tighter ratio takes more iterations.
  NewtonOptions tighter = o;
  tighter.relativeGradientTolerance = 1e-14;
  VecX y(2);
  y << 10.0, -7.0;
  EXPECT_GT(NewtonSolver(tighter).minimize(objective, y, DofMask(2, false)).iterations, r.iterations);
}

}  // namespace
}  // namespace softfit
