#include "forward/energies/ground_contact.h"

#include <cmath>

namespace softfit {

namespace {
constexpr double kPi = 3.14159265358979323846;
}

double softminZero(double d, double alpha) {
  const double s = alpha * d;
  // -log(1 + e^{-s}) / alpha, written without overflow for either sign of s
  if (s >= 0) return -std::log1p(std::exp(-s)) / alpha;
  return d - std::log1p(std::exp(s)) / alpha;
}

double softminZeroDerivative(double d, double alpha) {
  const double s = alpha * d;
  if (s >= 0) {
    const double e = std::exp(-s);
    return e / (1.0 + e);
  }
  return 1.0 / (1.0 + std::exp(s));
}

double softminZeroSecondDerivative(double d, double alpha) {
  const double s = softminZeroDerivative(d, alpha);
  return -alpha * s * (1.0 - s);
}

double dilogarithm(double x) {
  // Li2 for x <= 1. For x in [-1, 1/2] the Bernoulli series in u = -log(1 - x)
  // converges fast (|u| <= log 2); x < -1 uses the inversion formula,
  // x in (1/2, 1] the reflection formula.
  if (x < -1.0) {
    const double l = std::log(-x);
    return -kPi * kPi / 6.0 - 0.5 * l * l - dilogarithm(1.0 / x);
  }
  if (x > 0.5) {
    if (x == 1.0) return kPi * kPi / 6.0;
    return kPi * kPi / 6.0 - std::log(x) * std::log1p(-x) - dilogarithm(1.0 - x);
  }
  // B_n / (n+1)! for n = 0, 1, 2, 4, ..., 20 (odd n > 1 vanish).
  static const double coefficients[] = {
      1.0,
      -0.25,
      1.0 / 36.0,
      -1.0 / 3600.0,
      1.0 / 211680.0,
      -1.0 / 10886400.0,
      1.0 / 526901760.0,
      -4.0647616451442255e-11,
      8.9216910204564526e-13,
      -1.9939295860721076e-14,
      4.5189800296199182e-16,
  };
  const double u = -std::log1p(-x);
  const double u2 = u * u;
  // sum = u + B1 u^2 / 2! + sum_k B_{2k} u^{2k+1} / (2k+1)!
  double term = u;  // u^{2k+1}
  double sum = coefficients[0] * u + coefficients[1] * u2;
  for (int k = 1; k <= 9; ++k) {
    term *= u2;
    sum += coefficients[k + 1] * term;
  }
  return sum;
}

double softminZeroPotential(double d, double alpha) {
  // Phi(d) = int_d^inf log(1 + e^{-alpha s}) / alpha ds = -Li2(-e^{-alpha d}) / alpha^2.
  const double s = alpha * d;
  if (s >= 0) return -dilogarithm(-std::exp(-s)) / (alpha * alpha);
  // Inversion without forming e^{-s}: -Li2(-t) = pi^2/6 + log(t)^2/2 + Li2(-1/t), log t = -s.
  return (kPi * kPi / 6.0 + 0.5 * s * s + dilogarithm(-std::exp(s))) / (alpha * alpha);
}

GroundContact::GroundContact(GroundPlane plane, const std::vector<int>& contactNodes) : plane_(std::move(plane)) {
  points_.reserve(contactNodes.size());
  for (int n : contactNodes) points_.push_back(ContactPoint{{n}, {1.0}});
}

GroundContact::GroundContact(GroundPlane plane, std::vector<ContactPoint> points)
    : plane_(std::move(plane)), points_(std::move(points)) {}

Vec3 GroundContact::position(const VecX& x, const ContactPoint& p) const {
  Vec3 q = Vec3::Zero();
  for (size_t a = 0; a < p.nodes.size(); ++a) q += p.weights[a] * x.segment<3>(3 * p.nodes[a]);
  return q;
}

double GroundContact::energy(const VecX& x) const {
  double total = 0.0;
  for (const auto& p : points_) total += stiffness(p) * softminZeroPotential(distance(x, p), plane_.sharpness);
  return total;
}

void GroundContact::addGradient(const VecX& x, VecX& gradient) const {
  for (const auto& p : points_) {
    const Vec3 g = stiffness(p) * softminZero(distance(x, p), plane_.sharpness) * plane_.normal;
    for (size_t a = 0; a < p.nodes.size(); ++a) gradient.segment<3>(3 * p.nodes[a]) += p.weights[a] * g;
  }
}

void GroundContact::addHessian(const VecX& x, BlockAssembler& H) const {
  addHessianScaled(H, [&](const ContactPoint& p) { return softminZeroDerivative(distance(x, p), plane_.sharpness); });
}

void GroundContact::addCurvatureBound(BlockAssembler& H) const {
  addHessianScaled(H, [](const ContactPoint&) { return 1.0; });
}

double GroundContact::maxPenetration(const VecX& x) const {
  double worst = 0.0;
  for (const auto& p : points_) worst = std::max(worst, -distance(x, p));
  return worst;
}

}  // namespace softfit
