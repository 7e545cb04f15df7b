#pragma once
// The simulated body: elements with per-element material parameters and densities,
// lumped mass, gravity, Rayleigh damping, ground contact, attachment springs and
// Dirichlet nodes. Provides the total potential energy E(x) (elastic + gravity +
// contact + springs) with gradient and Hessian; integrators build on it.
#include <optional>
#include <vector>

#include "forward/energies/attachment_springs.h"
#include "forward/energies/dirichlet_boundary.h"
#include "forward/energies/elastic_energy.h"
#include "forward/energies/ground_contact.h"
#include "forward/integrators/step_adjoint.h"

namespace softfit {

struct RayleighDamping {
  double alpha1 = 0.0;  // mass-proportional
  double alpha2 = 0.0;  // stiffness-proportional
  bool active() const { return alpha1 != 0.0 || alpha2 != 0.0; }
};

class PhysicalModel {
 public:
  PhysicalModel(VecX restPositions, std::vector<Element> elements, MaterialModel model,
                std::vector<LameParameters> lame, VecX density);

  int nodeCount() const { return static_cast<int>(rest_.size() / 3); }
  int dofCount() const { return static_cast<int>(rest_.size()); }
  const VecX& restPositions() const { return rest_; }
  const VecX& mass() const { return mass_; }            // lumped, per dof
  const VecX& density() const { return density_; }      // per element
  void setDensity(VecX density);
  double totalMass() const { return mass_.sum() / 3.0; }

  ElasticEnergy& elastic() { return elastic_; }
  const ElasticEnergy& elastic() const { return elastic_; }

  Vec3 gravity = Vec3::Zero();
  RayleighDamping damping;
  std::optional<GroundContact> ground;
  AttachmentSprings attachments;
  DirichletBoundary dirichlet;
  // Grid models: integer lattice coordinates of every node (empty otherwise); the
  // multigrid preconditioner coarsens this lattice.
  std::vector<Eigen::Vector3i> nodeLattice;

  // The Dirichlet mask sized to the model (all free when there is no Dirichlet group).
  DofMask fixedDofs() const;

  // Pattern covering elements (springs and contact only touch diagonal blocks).
  const BlockSparsePattern& pattern() const { return pattern_; }

  double potentialEnergy(const VecX& x) const;
  void addPotentialGradient(const VecX& x, VecX& gradient) const;
  // potentialEnergy(x), with its gradient added to `gradient`, in one pass.
  double potentialEnergyAndAddGradient(const VecX& x, VecX& gradient) const;
  void addPotentialHessian(const VecX& x, BlockAssembler& H, EigenvalueFilter filter, double filterEpsilon) const;
  double gravityEnergy(const VecX& x) const;
  double kineticEnergy(const VecX& v) const { return 0.5 * v.dot(mass_.cwiseProduct(v)); }

  // D = alpha1 M + alpha2 K_w(x): K_w is the small-strain stiffness in per-element
  // frames R_e = polar(F_e(x)) (ElasticEnergy::addDampingStiffness; R_e = I for the
  // linear material), so it is PSD and does not damp rigid rotation. Overwrites D
  // (which must have the pattern's structure).
  void assembleDamping(const VecX& x, SparseMatrix& D) const;
  // Elastic stiffness at x into K (overwritten).
  void assembleStiffness(const VecX& x, SparseMatrix& K, EigenvalueFilter filter = EigenvalueFilter::None) const;

  // ---- Adjoint support (physical_model_adjoint.cpp); `scale` multiplies everything. ----
  // Exact (unfiltered) Hessian of the potential at x times v, added to out.
  void addPotentialHessianProduct(const VecX& x, const VecX& v, double scale, VecX& out) const;
  // d/dp of lambda^T grad E(x) for the elastic (mu, lambda), gravity and ground
  // parameters into `gradient`, and d/d(mass per dof) into massBar (gravity term).
  void addPotentialParameterAdjoint(const VecX& x, const VecX& lambda, double scale, ModelGradient& gradient,
                                    VecX& massBar) const;
  // Chains dL/d(mass per dof) to dL/d(density per element).
  void addMassAdjoint(const VecX& massBar, ModelGradient& gradient) const;

  // Size of the body (bounding-box diagonal of the rest shape), for tolerances.
  double characteristicLength() const { return characteristicLength_; }

 private:
  VecX rest_;
  ElasticEnergy elastic_;
  VecX density_;
  VecX mass_;
  BlockSparsePattern pattern_;
  double characteristicLength_ = 1.0;
};

}  // namespace softfit
