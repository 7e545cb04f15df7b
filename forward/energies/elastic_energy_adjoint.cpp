// Adjoint-side derivatives of ElasticEnergy (declared in elastic_energy.h), kept next to
// the forward code so both change together.
#include "forward/energies/elastic_energy.h"
#include "forward/math/polar_decomposition.h"

namespace softfit {

namespace {

// d/dR of <R^T Lam, C(R^T G)> for the small-strain tensor C (Lame mu, la), minus
// `offset` * C(I) (offset = 1 for the elastic energy, whose strain is R^T F - I;
// 0 for the damping stiffness acting on a displacement gradient G).
Mat3 frameGradient(const Mat3& Lam, const Mat3& G, const Mat3& R, const LameParameters& p, double offset) {
  const double trL = (R.transpose() * Lam).trace();
  const double trG = (R.transpose() * G).trace();
  return p.mu * (Lam * R.transpose() * G + G * R.transpose() * Lam) + p.lambda * (trL * G + trG * Lam) -
         offset * (2.0 * p.mu + 3.0 * p.lambda) * Lam;
}

// Chains dS = d(scalar)/dR of element e's frame R = polar(F_avg(xFrame)) to xFrame.
void chainFrameToPositions(const Element& el, const Mat3& Favg, const Mat3& dR, double scale, VecX& frameBar) {
  const Vec9 dF = polarRotationDerivative(Favg).transpose() * flatten(dR);
  const Mat3 dFm = unflatten(dF);
  double volume = 0.0;
  for (const auto& q : el.quadrature) volume += q.weight;
  for (const auto& q : el.quadrature)
    for (int a = 0; a < el.nodeCount(); ++a)
      frameBar.segment<3>(3 * el.nodes[a]) += scale * (q.weight / volume) * (dFm * q.dNdX.row(a).transpose());
}

}  // namespace

void ElasticEnergy::addParameterAdjoint(const VecX& x, const VecX& lambda, double scale, VecX& muBar,
                                        VecX& lambdaBar) const {
  for (size_t e = 0; e < elements_.size(); ++e) {
    const Element& el = elements_[e];
    const Mat3 R = elementFrame(static_cast<int>(e));
    for (const auto& q : el.quadrature) {
      // lambda^T grad = sum_q w <F(lambda), R P(R^T F(x))>
      const Mat3 Lam = deformationGradient(el, q, lambda);
      const auto dP = material_->firstPiolaParameterDerivative(R.transpose() * deformationGradient(el, q, x),
                                                               parameters_[e]);
      muBar[e] += scale * q.weight * (Lam.cwiseProduct(R * dP[0])).sum();
      lambdaBar[e] += scale * q.weight * (Lam.cwiseProduct(R * dP[1])).sum();
    }
  }
}

void ElasticEnergy::addRotationAdjoint(const VecX& x, const VecX& lambda, const VecX& xFrame, double scale,
                                       VecX& frameBar) const {
  if (!usesElementRotations()) return;
  for (size_t e = 0; e < elements_.size(); ++e) {
    const Element& el = elements_[e];
    const Mat3 R = rotations_[e];
    Mat3 dR = Mat3::Zero();
    for (const auto& q : el.quadrature)
      dR += q.weight * frameGradient(deformationGradient(el, q, lambda), deformationGradient(el, q, x), R,
                                     parameters_[e], 1.0);
    chainFrameToPositions(el, averageDeformationGradient(static_cast<int>(e), xFrame), dR, scale, frameBar);
  }
}

void ElasticEnergy::addDampingParameterAdjoint(const std::vector<Mat3>& frames, const VecX& d, const VecX& lambda,
                                               double scale, VecX& muBar, VecX& lambdaBar) const {
  for (size_t e = 0; e < elements_.size(); ++e) {
    const Element& el = elements_[e];
    const Mat3& R = frames[e];
    for (const auto& q : el.quadrature) {
      // lambda^T K_w d = sum_q w <R^T Lam, C(R^T G)>, C(E) = 2 mu sym(E) + la tr(E) I
      const Mat3 L = R.transpose() * deformationGradient(el, q, lambda);
      const Mat3 G = R.transpose() * deformationGradient(el, q, d);
      muBar[e] += scale * q.weight * L.cwiseProduct(G + G.transpose()).sum();
      lambdaBar[e] += scale * q.weight * L.trace() * G.trace();
    }
  }
}

void ElasticEnergy::addDampingRotationAdjoint(const VecX& d, const VecX& lambda, const VecX& xFrame, double scale,
                                              VecX& frameBar) const {
  if (model_ == MaterialModel::Linear) return;
  for (size_t e = 0; e < elements_.size(); ++e) {
    const Element& el = elements_[e];
    const Mat3 Favg = averageDeformationGradient(static_cast<int>(e), xFrame);
    const Mat3 R = polarRotation(Favg);
    Mat3 dR = Mat3::Zero();
    for (const auto& q : el.quadrature)
      dR += q.weight * frameGradient(deformationGradient(el, q, lambda), deformationGradient(el, q, d), R,
                                     parameters_[e], 0.0);
    chainFrameToPositions(el, Favg, dR, scale, frameBar);
  }
}

void ElasticEnergy::addWarpedFrameAdjoint(const VecX& x, double elasticScale, const VecX& d, double dampingScale,
                                          const VecX& lambda, const VecX& xFrame, VecX& frameBar) const {
  if (!usesElementRotations()) return;
  for (size_t e = 0; e < elements_.size(); ++e) {
    const Element& el = elements_[e];
    const Mat3& R = rotations_[e];
    Mat3 dR = Mat3::Zero();
    for (const auto& q : el.quadrature) {
      const Mat3 Lam = deformationGradient(el, q, lambda);
      dR += q.weight * (elasticScale * frameGradient(Lam, deformationGradient(el, q, x), R, parameters_[e], 1.0) +
                        dampingScale * frameGradient(Lam, deformationGradient(el, q, d), R, parameters_[e], 0.0));
    }
    chainFrameToPositions(el, averageDeformationGradient(static_cast<int>(e), xFrame), dR, 1.0, frameBar);
  }
}

}  // namespace softfit
