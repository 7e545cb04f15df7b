// Adjoint-side derivatives of GroundContact (declared in ground_contact.h).
#include "forward/energies/ground_contact.h"

namespace softfit {

namespace {
Vec3 pointValue(const VecX& v, const ContactPoint& p) {
  Vec3 q = Vec3::Zero();
  for (size_t a = 0; a < p.nodes.size(); ++a) q += p.weights[a] * v.segment<3>(3 * p.nodes[a]);
  return q;
}
}  // namespace

void GroundContact::addParameterAdjoint(const VecX& x, const VecX& lambda, double scale, Vec3& normalBar,
                                        double& offsetBar) const {
  const double alpha = plane_.sharpness;
  const Vec3& n = plane_.normal;
  for (const auto& p : points_) {
    // lambda^T grad = k A_p softmin(d) (n . lambda_p), d = n . x_p + offset
    const double k = stiffness(p);
    const Vec3 xp = position(x, p);
    const Vec3 lp = pointValue(lambda, p);
    const double d = n.dot(xp) + plane_.offset;
    const double s = softminZero(d, alpha), ds = softminZeroDerivative(d, alpha);
    offsetBar += scale * k * ds * n.dot(lp);
    normalBar += scale * k * (ds * n.dot(lp) * xp + s * lp);
  }
}

void GroundContact::addSemiImplicitAdjoint(const VecX& x, const VecX& q, const VecX& lambda, double scale, VecX& xBar,
                                           Vec3& normalBar, double& offsetBar) const {
  const double alpha = plane_.sharpness;
  const Vec3& n = plane_.normal;
  for (const auto& p : points_) {
    // s = k A_p [softmin'(d) (n.q_p)(n.lambda_p) + softmin(d) (n.lambda_p)]
    const double k = stiffness(p);
    const Vec3 xp = position(x, p), qp = pointValue(q, p), lp = pointValue(lambda, p);
    const double d = n.dot(xp) + plane_.offset;
    const double s0 = softminZero(d, alpha), s1 = softminZeroDerivative(d, alpha);
    const double s2 = softminZeroSecondDerivative(d, alpha);
    const double nq = n.dot(qp), nl = n.dot(lp);
    const double dsdd = k * (s2 * nq * nl + s1 * nl);
    for (size_t a = 0; a < p.nodes.size(); ++a) xBar.segment<3>(3 * p.nodes[a]) += scale * p.weights[a] * dsdd * n;
    offsetBar += scale * dsdd;
    normalBar += scale * (dsdd * xp + k * s1 * (nl * qp + nq * lp) + k * s0 * lp);
  }
}

}  // namespace softfit
