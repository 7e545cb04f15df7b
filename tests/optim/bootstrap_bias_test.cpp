// Parametric-bootstrap bias correction: on an estimator with a known bias b(q), one step
// leaves b(q^) - b(q), iterating converges to the truth; the variance MLE's (n-1)/n bias.
#include "optim/bootstrap_bias.h"

#include <gtest/gtest.h>

#include <random>

#include "forward/errors.h"

namespace softfit {
namespace {

TEST(BootstrapBias, RemovesAKnownBiasAndIteratesToTheTruth) {
  // Estimator of q with bias 0.2 q^2 per component.
  const VecX truth = (VecX(2) << 0.5, -1.0).finished();
  const auto estimator = [](const VecX& q) -> VecX { return q + 0.2 * q.cwiseProduct(q); };
  const VecX estimate = estimator(truth);
  std::vector<BootstrapStep> history;
  const VecX one = bootstrapBiasCorrection(estimate, estimator, 1, &history);
  ASSERT_EQ(history.size(), 1u);
  EXPECT_EQ(history[0].point, estimate);
  // One step: q^ - b(q^) = q + b(q) - b(q^).
  const VecX expected = truth + 0.2 * truth.cwiseProduct(truth) - 0.2 * estimate.cwiseProduct(estimate);
  EXPECT_LT((one - expected).norm(), 1e-15);
  EXPECT_LT((one - truth).norm(), (estimate - truth).norm());
  const VecX many = bootstrapBiasCorrection(estimate, estimator, 30);
  EXPECT_LT((many - truth).norm(), 1e-10);
  EXPECT_EQ(bootstrapBiasCorrection(estimate, estimator, 0), estimate);
  EXPECT_THROW(bootstrapBiasCorrection(estimate, estimator, -1), InputError);
  EXPECT_THROW(bootstrapBiasCorrection(estimate, [](const VecX&) { return VecX(3); }, 1), InputError);
}

TEST(BootstrapBias, CorrectsTheVarianceMaximumLikelihoodEstimate) {
  // Variance MLE of n = 5 Gaussian samples: E = (n - 1) / n sigma^2. Mean over 4000
  // data sets of the plain and the one-step corrected estimate (fresh samples per re-estimate).
  const int n = 5, sets = 4000;
  std::mt19937_64 rng(9);
  const auto mle = [&](double variance) {
    std::normal_distribution<double> g(0.0, std::sqrt(variance));
    double x[n], mean = 0.0, v = 0.0;
    for (double& xi : x) mean += (xi = g(rng)) / n;
    for (const double xi : x) v += (xi - mean) * (xi - mean) / n;
    return v;
  };
  double plain = 0.0, corrected = 0.0;
  for (int s = 0; s < sets; ++s) {
    const VecX estimate = VecX::Constant(1, mle(1.0));
    plain += estimate[0] / sets;
    // The re-estimate averages 200 synthetic data sets (the bias, not one draw).
    const auto reestimate = [&](const VecX& q) {
      double m = 0.0;
      for (int k = 0; k < 200; ++k) m += mle(std::max(q[0], 1e-12)) / 200;
      return VecX::Constant(1, m);
    };
    corrected += bootstrapBiasCorrection(estimate, reestimate, 1)[0] / sets;
  }
  EXPECT_NEAR(plain, 0.8, 0.03);
  EXPECT_NEAR(corrected, 0.96, 0.04);  // 1 - (1/n)^2 to first order: most of the bias gone
}

}  // namespace
}  // namespace softfit
