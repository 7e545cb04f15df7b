// Adjoint-side derivatives of PhysicalModel (declared in physical_model.h).
#include "forward/energies/lumped_mass.h"
#include "forward/energies/physical_model.h"

namespace softfit {

void PhysicalModel::addPotentialHessianProduct(const VecX& x, const VecX& v, double scale, VecX& out) const {
  SparseMatrix H = pattern_.zeroMatrix();
  BlockAssembler assembler(pattern_, H);
  addPotentialHessian(x, assembler, EigenvalueFilter::None, 0.0);
  out += scale * (H * v);
}

void PhysicalModel::addPotentialParameterAdjoint(const VecX& x, const VecX& lambda, double scale,
                                                 ModelGradient& gradient, VecX& massBar) const {
  elastic_.addParameterAdjoint(x, lambda, scale, gradient.mu, gradient.lambda);
  // Gravity: grad_i = -m_i g, so lambda^T grad = -sum_i m_i g . lambda_i.
  for (int i = 0; i < nodeCount(); ++i) {
    const Vec3 li = lambda.segment<3>(3 * i);
    gradient.gravity -= scale * mass_[3 * i] * li;
    massBar.segment<3>(3 * i) -= scale * gravity.cwiseProduct(li);
  }
  if (ground) ground->addParameterAdjoint(x, lambda, scale, gradient.groundNormal, gradient.groundOffset);
}

void PhysicalModel::addMassAdjoint(const VecX& massBar, ModelGradient& gradient) const {
  addDensityAdjoint(elastic_.elements(), massBar, gradient.density);
}

}  // namespace softfit
