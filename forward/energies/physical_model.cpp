#include "forward/energies/physical_model.h"

#include "forward/energies/lumped_mass.h"
#include "forward/energies/stable_neo_hookean_projection.h"

namespace softfit {

namespace {

std::vector<std::vector<int>> elementCliques(const std::vector<Element>& elements) {
  std::vector<std::vector<int>> cliques;
  cliques.reserve(elements.size());
  for (const auto& e : elements) cliques.push_back(e.nodes);
  return cliques;
}

}  // namespace

PhysicalModel::PhysicalModel(VecX restPositions, std::vector<Element> elements, MaterialModel model,
                             std::vector<LameParameters> lame, VecX density)
    : rest_(std::move(restPositions)),
      elastic_(std::move(elements), model, std::move(lame)),
      pattern_(static_cast<int>(rest_.size() / 3), elementCliques(elastic_.elements())) {
  elastic_.cacheBlockPositions(pattern_);
  setDensity(std::move(density));
  const auto P = Eigen::Map<const Eigen::Matrix<double, 3, Eigen::Dynamic>>(rest_.data(), 3, rest_.size() / 3);
  if (P.cols() > 0) characteristicLength_ = (P.rowwise().maxCoeff() - P.rowwise().minCoeff()).norm();
}

void PhysicalModel::setDensity(VecX density) {
  density_ = std::move(density);
  mass_ = lumpedMass(elastic_.elements(), nodeCount(), density_);
}

DofMask PhysicalModel::fixedDofs() const {
  const DofMask& fixed = dirichlet.fixedDofs();
  return fixed.empty() ? DofMask(dofCount(), 0) : fixed;
}

double PhysicalModel::gravityEnergy(const VecX& x) const {
  double e = 0.0;
  for (int i = 0; i < nodeCount(); ++i) e -= mass_[3 * i] * gravity.dot(x.segment<3>(3 * i));
  return e;
}

double PhysicalModel::potentialEnergy(const VecX& x) const {
  double e = elastic_.energy(x) + gravityEnergy(x) + attachments.energy(x);
  if (ground) e += ground->energy(x);
  return e;
}

double PhysicalModel::potentialEnergyAndAddGradient(const VecX& x, VecX& gradient) const {
  double e = elastic_.energyAndAddGradient(x, gradient) + gravityEnergy(x) + attachments.energy(x);
  if (ground) e += ground->energy(x);
  addExternalGradient(x, gradient);
  return e;
}

void PhysicalModel::addPotentialGradient(const VecX& x, VecX& gradient) const {
  elastic_.addGradient(x, gradient);
  addExternalGradient(x, gradient);
}

double PhysicalModel::externalEnergy(const VecX& x) const {
  double e = gravityEnergy(x) + attachments.energy(x);
  if (ground) e += ground->energy(x);
  return e;
}

void PhysicalModel::addExternalGradient(const VecX& x, VecX& gradient) const {
  for (int i = 0; i < nodeCount(); ++i) gradient.segment<3>(3 * i) -= mass_[3 * i] * gravity;
  attachments.addGradient(x, gradient);
  if (ground) ground->addGradient(x, gradient);
}

void PhysicalModel::addPotentialHessian(const VecX& x, BlockAssembler& H, EigenvalueFilter filter,
                                        double filterEpsilon, ElementEigensystem eigensystem) const {
  if (eigensystem == ElementEigensystem::AnalyticStableNeoHookean)
    addStableNeoHookeanProjectedHessian(elastic_, x, H, filter, filterEpsilon);
  else
    elastic_.addHessian(x, H, filter, filterEpsilon);
  addExternalHessian(x, H);
}

void PhysicalModel::addExternalHessian(const VecX& x, BlockAssembler& H) const {
  attachments.addHessian(H);
  if (ground) ground->addHessian(x, H);
}

void PhysicalModel::assembleStiffness(const VecX& x, SparseMatrix& K, EigenvalueFilter filter) const {
  BlockAssembler assembler(pattern_, K);
  assembler.setZero();
  elastic_.addHessian(x, assembler, filter, 0.0);
}

void PhysicalModel::assembleDamping(const VecX& x, SparseMatrix& D) const {
  BlockAssembler assembler(pattern_, D);
  assembler.setZero();
  if (damping.alpha2 != 0.0) {
    elastic_.addDampingStiffness(elastic_.dampingFrames(x), assembler);
    D *= damping.alpha2;
  }
  if (damping.alpha1 != 0.0) assembler.addDiagonal(damping.alpha1 * mass_);
}

}  // namespace softfit
