// Adjoint-side derivatives of ElasticEnergy (declared in elastic_energy.h), kept next to
// the forward code so both change together. The damping stiffness' adjoints sit beside
// it in rayleigh_damping.cpp.
#include "forward/energies/elastic_energy.h"
#include "forward/energies/elastic_element_kernels.h"
#include "forward/math/polar_decomposition.h"

namespace softfit {

using namespace element_kernels;

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
