// L-BFGS two-loop recursion: secant condition and invariance of an exact initial inverse.
#include "forward/solvers/lbfgs_two_loop.h"

#include <gtest/gtest.h>

#include <Eigen/Cholesky>
#include <random>

namespace softfit {
namespace {

struct Quadratic {
  MatX A;
  explicit Quadratic(int n) {
    std::mt19937 rng(11);
    std::normal_distribution<double> g(0.0, 1.0);
    MatX B(n, n);
    for (int k = 0; k < B.size(); ++k) B(k) = g(rng);
    A = B * B.transpose() + n * MatX::Identity(n, n);
  }
};

VecX randomVector(int n, unsigned seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<double> g(0.0, 1.0);
  VecX v(n);
  for (int i = 0; i < n; ++i) v[i] = g(rng);
  return v;
}

TEST(LbfgsTwoLoop, SatisfiesTheLatestSecantCondition) {
  const int n = 8;
  const Quadratic q(n);
  LbfgsHistory history(3);
  const auto identity = [](const VecX& r) { return r; };
  for (unsigned k = 0; k < 5; ++k) {
    const VecX s = randomVector(n, 100 + k);
    ASSERT_TRUE(history.push(s, q.A * s));
    const VecX y = q.A * s;
    EXPECT_LT((history.apply(y, identity) - s).norm(), 1e-10 * s.norm());
  }
  EXPECT_EQ(history.size(), 3);
}

TEST(LbfgsTwoLoop, KeepsAnExactInitialInverse) {
  const int n = 8;
  const Quadratic q(n);
  const Eigen::LLT<MatX> llt(q.A);
  const auto exactInverse = [&](const VecX& r) { return VecX(llt.solve(r)); };
  LbfgsHistory history(5);
  for (unsigned k = 0; k < 4; ++k) {
    const VecX s = randomVector(n, 200 + k);
    history.push(s, q.A * s);
  }
  const VecX g = randomVector(n, 999);
  EXPECT_LT((history.apply(g, exactInverse) - llt.solve(g)).norm(), 1e-10 * llt.solve(g).norm());
}

TEST(LbfgsTwoLoop, SkipsPairsWithoutPositiveCurvature) {
  LbfgsHistory history(5);
  VecX s = VecX::Zero(3);
  s[0] = 1.0;
  EXPECT_FALSE(history.push(s, -s));
  EXPECT_EQ(history.size(), 0);
}

}  // namespace
}  // namespace softfit
