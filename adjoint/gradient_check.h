#pragma once
// Gradient verification as a user feature: central finite differences per parameter
// with a step-size sweep, and a Taylor remainder test along a random direction
// (|f(p + e d) - f(p) - e g.d| must fall as e^2). Backs `softfit gradcheck` and tests.
#include <functional>
#include <string>
#include <vector>

#include "forward/types.h"

namespace softfit {

struct FiniteDifferenceRow {
  std::string name;
  double value = 0.0;
  double adjoint = 0.0;
  std::vector<double> steps;       // relative step sizes tried
  std::vector<double> differences; // central differences at those steps
  double best = 0.0;               // the difference closest to the adjoint
  double relativeError = 0.0;      // |adjoint - best| / max(|best|, scale floor)
  bool passed = false;
};

struct TaylorTest {
  std::vector<double> epsilons;
  std::vector<double> remainders;  // |f(p + e d) - f(p) - e g.d|
  std::vector<double> rates;       // log2(r_i / r_{i+1}); ~2 for a correct gradient
  bool constant = false;           // every remainder is 0: the loss does not change along d
  bool passed = false;
};

struct GradientCheckReport {
  std::vector<FiniteDifferenceRow> rows;
  TaylorTest taylor;
  bool passed = false;
};

struct GradientCheckOptions {
  double tolerance = 1e-6;  // relative error per parameter
  std::vector<double> relativeSteps = {1e-3, 1e-4, 1e-5, 1e-6, 1e-7};
  int taylorHalvings = 4;   // at least 3 rates
  double taylorEpsilon = 1e-2;
  unsigned seed = 1;        // Taylor direction
};

// `loss(p)` evaluates the loss, `gradient` is the adjoint gradient at p0.
GradientCheckReport checkGradient(const std::function<double(const VecX&)>& loss, const VecX& p0,
                                  const VecX& gradient, const std::vector<std::string>& names,
                                  const GradientCheckOptions& options = {});

// A printable table of the report.
std::string formatGradientCheck(const GradientCheckReport& report);

}  // namespace softfit
