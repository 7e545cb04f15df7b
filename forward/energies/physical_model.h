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
#include "forward/energies/hessian_projection.h"
#include "forward/energies/model_gradient.h"

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

  // E(x) = elastic + external terms. The external terms (gravity, attachment springs,
  // ground contact) are listed only here, in externalEnergy / addExternalGradient /
  // addExternalHessian and potentialEnergy (which adds them in the same order); a new
  // energy term goes into all four, and every solver path picks it up.
  double potentialEnergy(const VecX& x) const;
  void addPotentialGradient(const VecX& x, VecX& gradient) const;
  // potentialEnergy(x), with its gradient added to `gradient`, in one pass.
  double potentialEnergyAndAddGradient(const VecX& x, VecX& gradient) const;
  // The elastic element Hessians filtered as asked (numeric 12x12 eigensystem, or the
  // closed-form stable neo-Hookean one: the material must then be StableNeoHookean),
  // plus addExternalHessian. Every solver path (the integrators' and step solvers'
  // StepObjective, the adjoint) gets the potential's Hessian from here.
  void addPotentialHessian(const VecX& x, BlockAssembler& H, EigenvalueFilter filter, double filterEpsilon,
                           ElementEigensystem eigensystem = ElementEigensystem::Numeric) const;
  // Hessian of every term of the potential but the elastic one (attachment springs,
  // ground contact; gravity is linear). A new energy term adds its Hessian here.
  void addExternalHessian(const VecX& x, BlockAssembler& H) const;
  // Every term but the elastic one (mixed FEM treats the elastic term separately).
  double externalEnergy(const VecX& x) const;
  void addExternalGradient(const VecX& x, VecX& gradient) const;
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
