// Adaptive (trust-region) eigenvalue filtering in NewtonSolver (Chen et al. SIGGRAPH
// Asia 2024): the solver asks for the model-trusted Hessian exactly after steps whose
// actual decrease matched the exact quadratic model's prediction.
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

TEST(NewtonSolver, ExactFirstFallsBackToTheFilteredHessianWhereItIsIndefinite) {
  DoubleWellObjective objective;
  VecX x(2);
  x << 0.2, -0.3;  // both coordinates in the concave region: exact Cholesky fails
  const NewtonResult r = minimizeDoubleWell(objective, x);
  ASSERT_GE(objective.requests.size(), 2u);
  EXPECT_EQ(objective.requests[0], HessianKind::Exact);
  EXPECT_EQ(objective.requests[1], HessianKind::Filtered);
  EXPECT_GE(r.filteredIterations, 1);
  EXPECT_LT(r.filteredIterations, r.iterations);  // exact again once past the inflection
}

}  // namespace
}  // namespace softfit
