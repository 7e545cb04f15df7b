#pragma once
// The thesis' "Newmark 1" scheme for linear and warped-corotated models
// (docs/theory.rst, section 2, with the sign erratum fixed), a = 1 / (theta dt):
//   A = (a + alpha1) M + (alpha2 + theta dt) K
//   b = [(a + alpha1) M + (alpha2 - (1 - theta) dt) K] u^{n-1} + (1/theta) M v^{n-1} + dt f
//   A u^n = b ;  v^n = a (u^n - u^{n-1}) - ((1 - theta)/theta) v^{n-1}
// K and the element rotations are built from the lagged state u^{n-1}. Ground contact
// is semi-implicit: f_c(x^{n-1}) + theta dt df_c/dx v^n. Attachment springs enter K
// and f. Constant systems are factorized once; changing ones (rotations, contact) are
// solved by PCG preconditioned with a cached CHOLMOD factor, refreshed when PCG slows,
// or (settings.preconditioner, grid models) with a geometric multigrid V-cycle whose
// coarse levels are rebuilt when PCG slows.
#include <memory>

#include "forward/integrators/time_integrator.h"
#include "forward/solvers/multigrid_preconditioner.h"

namespace softfit {

struct NewmarkSystem {
  SparseMatrix A;
  VecX b;
  // Ground contact's part of A alone, for the points that touch or nearly touch the
  // ground (only their entries stored; empty without ground): the multigrid
  // preconditioner carries it to its coarse levels every step.
  SparseMatrix contact;
};

class NewmarkThetaIntegrator final : public TimeIntegrator {
 public:
  explicit NewmarkThetaIntegrator(const IntegratorSettings& settings);
  State step(PhysicalModel& model, const State& current, const State* previous, double dt) override;
  IntegratorType type() const override { return IntegratorType::NewmarkTheta; }
  void reset() override {
    operatorsCached_ = haveFactor_ = factorIsExact_ = false;
    multigrid_.reset();
    freshIterations_ = -1;
  }
  void adjointStep(PhysicalModel& model, const State& next, const State& current, const State* previous, double dt,
                   StepAdjoint& adjoint) override;  // newmark_theta_adjoint.cpp

  // Assembles A and b (before Dirichlet elimination) for the step from `current`.
  // Updates the model's element rotations from current.x.
  void assembleSystem(PhysicalModel& model, const State& current, double dt, NewmarkSystem& system);
  double theta() const { return theta_; }
  // Whether the PCG solves for this model use the multigrid preconditioner.
  bool usesMultigrid(const PhysicalModel& model) const;
  // The multigrid hierarchy of the last solve (nullptr before one or without multigrid).
  const MultigridPreconditioner* multigrid() const { return multigrid_.get(); }

 private:
  // K (elastic), K + springs, the constant force f and A without contact, from the
  // lagged state. Reused across steps while the system is constant.
  void assembleOperators(PhysicalModel& model, const State& current, double dt);
  void addContact(const PhysicalModel& model, const State& current, double dt, NewmarkSystem& system) const;
  VecX rightHandSide(const PhysicalModel& model, const State& current, double dt) const;
  // K + springs (K_ itself without springs).
  const SparseMatrix& Ktotal() const { return hasSprings_ ? Ktotal_ : K_; }
  // y = K_ x (threaded; K_ is symmetric with both triangles stored).
  void stiffnessProduct(const VecX& x, VecX& y) const;
  // PCG on the eliminated system A x = b with the multigrid preconditioner (built or
  // rebuilt from A when needed; rebuilds counted in `rebuilds`). `what` names the solve
  // in errors.
  // contact: the part of A passed on as the multigrid's correction (or nullptr).
  PcgResult multigridSolve(const PhysicalModel& model, const DofMask& fixed, const SparseMatrix& A,
                           const SparseMatrix* contact, const VecX& b, VecX& x, int& rebuilds,
                           const std::string& what);

  double theta_;
  IntegratorSettings settings_;
  SparseMatrix K_, Ktotal_, Abase_;  // Ktotal_ only holds K + springs when hasSprings_
  bool hasSprings_ = false;
  mutable std::shared_ptr<SymmetricProduct> stiffnessProduct_;  // for K_'s structure
  mutable Eigen::Index stiffnessProductRows_ = -1, stiffnessProductNonZeros_ = -1;
  VecX f_;
  NewmarkSystem system_;
  CholeskySolver factor_;
  bool operatorsCached_ = false;  // K_, Ktotal_, Abase_, f_ valid for operatorsDt_
  double operatorsDt_ = -1.0;
  bool haveFactor_ = false;
  bool factorIsExact_ = false;    // factor_ is of the current constant system
  std::unique_ptr<MultigridPreconditioner> multigrid_;
  bool rebuildMultigrid_ = false;  // the last solve was slow: rebuild at the next one
  int freshIterations_ = -1;       // PCG iterations of the first solve after the last rebuild
};

}  // namespace softfit
