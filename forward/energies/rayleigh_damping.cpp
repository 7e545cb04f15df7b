// Rayleigh damping D = alpha1 M + alpha2 K_w(xFrame) (PhysicalModel::assembleDamping):
// the stiffness-proportional part K_w, linear elasticity with the element's Lame
// parameters in a per-element frame R_e (identity for the linear material, else
// polar(F_e(xFrame)), so damping does not resist rigid rotation), and its two adjoints
// (with respect to the Lame parameters and to the frame positions) beside it. Declared
// in elastic_energy.h (ElasticEnergy); the element kernels are elastic_element_kernels.h.
#include "forward/energies/elastic_energy.h"
#include "forward/energies/elastic_element_kernels.h"

namespace softfit {

using namespace element_kernels;

std::vector<Mat3> ElasticEnergy::dampingFrames(const VecX& xFrame) const {
  std::vector<Mat3> frames(elements_.size(), Mat3::Identity());
  if (model_ == MaterialModel::Linear) return frames;
  for (size_t e = 0; e < elements_.size(); ++e)
    frames[e] = polarRotation(averageDeformationGradient(static_cast<int>(e), xFrame));
  return frames;
}

void ElasticEnergy::addDampingStiffness(const std::vector<Mat3>& frames, BlockAssembler& K) const {
  if (linearInFrame()) {
    addRotatedRestStiffness(frames, K);
    return;
  }
  const auto positions = blockPositionsFor(K);
  // The small-strain tensor does not depend on F: evaluate it at the frame itself.
  addElementHessians(
      elements_, threads_,
      [&](int e, MatX& out) {
        filteredElementHessian(
            elements_[e], *linear_, parameters_[e], frames[e], true, [&](const QuadraturePoint&) { return frames[e]; },
            EigenvalueFilter::None, 0.0, out);
      },
      positions, K);
}

// ---- Adjoint side. ----

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

}  // namespace softfit
