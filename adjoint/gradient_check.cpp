#include "adjoint/gradient_check.h"

#include <cmath>
#include <cstdio>
#include <random>

namespace softfit {

GradientCheckReport checkGradient(const std::function<double(const VecX&)>& loss, const VecX& p0,
                                  const VecX& gradient, const std::vector<std::string>& names,
                                  const GradientCheckOptions& options) {
  GradientCheckReport report;
  const double f0 = loss(p0);
  const double gradientScale = gradient.cwiseAbs().maxCoeff();
  for (int i = 0; i < p0.size(); ++i) {
    FiniteDifferenceRow row;
    row.name = i < static_cast<int>(names.size()) ? names[i] : "p" + std::to_string(i);
    row.value = p0[i];
    row.adjoint = gradient[i];
    double bestError = INFINITY;
    for (double rel : options.relativeSteps) {
      const double h = rel * std::max(std::abs(p0[i]), 1.0);
      VecX p = p0;
      p[i] = p0[i] + h;
      const double up = loss(p);
      p[i] = p0[i] - h;
      const double down = loss(p);
      const double fd = (up - down) / (2.0 * h);
      row.steps.push_back(rel);
      row.differences.push_back(fd);
      const double error = std::abs(fd - row.adjoint);
      if (error < bestError) {
        bestError = error;
        row.best = fd;
      }
    }
    // Relative to the entry itself, floored by a small share of the largest entry so
    // that exactly-zero derivatives are judged in absolute terms.
    row.relativeError = bestError / std::max(std::abs(row.best), 1e-8 * std::max(gradientScale, 1e-300));
    row.passed = row.relativeError <= options.tolerance;
    report.rows.push_back(row);
  }

  std::mt19937 generator(options.seed);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  VecX direction(p0.size());
  for (int i = 0; i < p0.size(); ++i) direction[i] = uniform(generator) * std::max(std::abs(p0[i]), 1e-2);
  double epsilon = options.taylorEpsilon;
  const double slope = gradient.dot(direction);
  for (int k = 0; k <= options.taylorHalvings; ++k, epsilon *= 0.5) {
    report.taylor.epsilons.push_back(epsilon);
    report.taylor.remainders.push_back(std::abs(loss(p0 + epsilon * direction) - f0 - epsilon * slope));
  }
  report.taylor.passed = true;
  report.taylor.constant = true;
  for (double r : report.taylor.remainders) report.taylor.constant = report.taylor.constant && r == 0.0;
  // A constant loss (zero gradient, zero remainders) has no rate to measure: 0/0 is not a failure.
  for (size_t k = 0; !report.taylor.constant && k + 1 < report.taylor.remainders.size(); ++k) {
    const double rate = std::log2(report.taylor.remainders[k] / report.taylor.remainders[k + 1]);
    report.taylor.rates.push_back(rate);
    if (!(rate > 1.8 && rate < 2.2)) report.taylor.passed = false;
  }
  report.passed = report.taylor.passed;
  for (const auto& r : report.rows) report.passed = report.passed && r.passed;
  return report;
}

std::string formatGradientCheck(const GradientCheckReport& report) {
  std::string out;
  char line[256];
  std::snprintf(line, sizeof(line), "%-20s %14s %16s %16s %10s  %s\n", "parameter", "value", "adjoint",
                "central FD", "rel.error", "result");
  out += line;
  for (const auto& r : report.rows) {
    std::snprintf(line, sizeof(line), "%-20s %14.6g %16.9g %16.9g %10.2e  %s\n", r.name.c_str(), r.value, r.adjoint,
                  r.best, r.relativeError, r.passed ? "ok" : "FAIL");
    out += line;
    out += "    FD step sweep:";
    for (size_t k = 0; k < r.steps.size(); ++k) {
      std::snprintf(line, sizeof(line), " %.0e:%.9g", r.steps[k], r.differences[k]);
      out += line;
    }
    out += "\n";
  }
  out += "Taylor remainder |f(p+e d) - f(p) - e g.d| (random direction d):\n";
  for (size_t k = 0; k < report.taylor.epsilons.size(); ++k) {
    std::snprintf(line, sizeof(line), "  e = %-10.3e remainder %.3e", report.taylor.epsilons[k], report.taylor.remainders[k]);
    out += line;
    if (k > 0 && k - 1 < report.taylor.rates.size()) {
      std::snprintf(line, sizeof(line), "  rate %.2f", report.taylor.rates[k - 1]);
      out += line;
    }
    out += "\n";
  }
  if (report.taylor.constant)
    out += "Taylor test: every remainder is 0: the loss is constant in these parameters (nothing to measure)\n";
  else
    out += std::string("Taylor test: ") + (report.taylor.passed ? "second order (ok)" : "NOT second order (FAIL)") + "\n";
  out += std::string("gradient check: ") + (report.passed ? "PASSED" : "FAILED") + "\n";
  return out;
}

}  // namespace softfit
