#pragma once
// One time step of an incremental-potential scheme (docs/theory.rst, section 2) as a
// minimization problem:
//   G(x) = 1/2 (x - y)^T M (x - y) + a h^2 E(b x + z) + c/2 (x - r)^T D (x - r)
// with the scheme's coefficients (IncrementalPotentialCoefficients) and D the lagged
// Rayleigh damping matrix. StepObjective is the one implementation of G with its
// gradient and (exact or eigenvalue-filtered) Hessian: the projected-Newton
// integrators, every step solver of forward/nonlinear, the schemes of forward/schemes
// and the adjoint's step Hessian all use it.
#include "forward/energies/hessian_projection.h"
#include "forward/integrators/incremental_potential_integrator.h"

namespace softfit {

struct StepProblem {
  IntegratorType scheme = IntegratorType::BackwardEuler;
  double dt = 0.0;
  double time = 0.0;  // t_{n+1}
  IncrementalPotentialCoefficients coefficients;
  SparseMatrix damping;  // D (model pattern); empty when the model is undamped
  DofMask fixed;         // Dirichlet dofs (kept at their initial-guess values)
  VecX initialGuess;     // y with the Dirichlet positions at t_{n+1}
  // Weight of E's Hessian in G's Hessian: a b^2 h^2.
  double energyHessianWeight() const;
};

// Builds the step from `current` (and `previous` for BDF2): refreshes the warped
// rotations of `model` and assembles its damping matrix at current.x.
// `scheme` must be an incremental-potential scheme (not NewmarkTheta / QuasiStatic).
StepProblem makeStepProblem(PhysicalModel& model, IntegratorType scheme, const State& current, const State* previous,
                            double dt);

// Scale for the Newton-decrement stopping test -1/2 d.g <= tol * scale (Chen et al. stop
// at 1e-5 lambda): a b^2 h^2 sum_e V_e (2 mu_e + lambda_e), so tol is a squared strain.
double decrementScale(const PhysicalModel& model, const StepProblem& problem);

// G(x) with gradient and (projected or exact) Hessian, on all dofs (the solvers handle
// the Dirichlet dofs). Every term of the potential comes from PhysicalModel (its value,
// gradient and addPotentialHessian), so a new energy term reaches every solver.
class StepObjective final : public NewtonObjective {
 public:
  // The step of a StepProblem (which must outlive the objective).
  StepObjective(const PhysicalModel& model, const StepProblem& problem, HessianProjection projection = {});
  // A step given by its parts (schemes outside IntegratorType, e.g. the theta family of
  // forward/schemes). D is used when the model is damped, D has the model's size and
  // the damping weight is not 0. References must outlive the objective; problem()
  // is then unavailable.
  StepObjective(const PhysicalModel& model, const IncrementalPotentialCoefficients& coefficients,
                const SparseMatrix& damping, double dt, HessianProjection projection = {});

  double value(const VecX& x) override;
  void gradient(const VecX& x, VecX& g) override;
  double valueAndGradient(const VecX& x, VecX& g) override;
  void hessian(const VecX& x, SparseMatrix& H, HessianKind kind) override;
  bool adaptiveFilter() const override { return projection_.filter == EigenvalueFilter::Adaptive; }
  bool exactHessianFirst() const override { return projection_.filter == EigenvalueFilter::ExactFirst; }
  SparseMatrix hessianPattern() const override { return model_.pattern().zeroMatrix(); }

  const PhysicalModel& model() const { return model_; }
  // The StepProblem it was built from (std::logic_error when built from parts).
  const StepProblem& problem() const;
  // Weight of E's Hessian in G's Hessian: a b^2 h^2.
  double energyHessianWeight() const { return energyHessianWeight_; }
  // The constant part of G's Hessian, M + c D + a b^2 h^2 (springs), plus
  // a b^2 h^2 `energyApproximation` (e.g. the PD Laplacian): a fixed SPD matrix for
  // L-BFGS and projective dynamics (all dofs; eliminate the Dirichlet ones yourself).
  SparseMatrix constantHessian(const SparseMatrix& energyApproximation) const;

 private:
  const PhysicalModel& model_;
  const StepProblem* problem_ = nullptr;
  const IncrementalPotentialCoefficients& c_;
  const SparseMatrix& D_;
  HessianProjection projection_;
  double h2_;
  double energyHessianWeight_;
  bool damped_;
};

}  // namespace softfit
