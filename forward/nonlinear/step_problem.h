#pragma once
// One time step of an incremental-potential scheme (DESIGN.md section 2) as a
// minimization problem, shared by the interchangeable step solvers (Newton, L-BFGS,
// projective dynamics):
//   G(x) = 1/2 (x - y)^T M (x - y) + a h^2 E(b x + z) + c/2 (x - r)^T D (x - r).
#include "forward/integrators/incremental_potential_integrator.h"

namespace softfit {

// How the elastic element Hessians are made positive semi-definite for projected Newton.
enum class ElementEigensystem {
  Numeric,                   // 12x12 element Hessian, SelfAdjointEigenSolver (ElasticEnergy)
  AnalyticStableNeoHookean,  // closed-form 9x9 dP/dF eigensystem per quadrature point
};
ElementEigensystem parseElementEigensystem(const std::string& name, const std::string& field);
std::string elementEigensystemName(ElementEigensystem eigensystem);

struct HessianProjection {
  EigenvalueFilter filter = EigenvalueFilter::Clamp;
  double epsilon = 0.0;  // Clamp: l -> max(l, epsilon)
  ElementEigensystem eigensystem = ElementEigensystem::Numeric;
};

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
// rotations and the damping matrix of `model` as IncrementalPotentialIntegrator::step does.
// `scheme` must be an incremental-potential scheme (not NewmarkTheta / QuasiStatic).
StepProblem makeStepProblem(PhysicalModel& model, IntegratorType scheme, const State& current, const State* previous,
                            double dt);

// Scale for the Newton-decrement stopping test -1/2 d.g <= tol * scale (Chen et al. stop
// at 1e-5 lambda): a b^2 h^2 sum_e V_e (2 mu_e + lambda_e), so tol is a squared strain.
double decrementScale(const PhysicalModel& model, const StepProblem& problem);

// G(x) with gradient and (projected or exact) Hessian, on all dofs (the solvers handle
// the Dirichlet dofs).
class StepObjective final : public NewtonObjective {
 public:
  StepObjective(const PhysicalModel& model, const StepProblem& problem,
                                HessianProjection projection = {});
  double value(const VecX& x) override;
  void gradient(const VecX& x, VecX& g) override;
  double valueAndGradient(const VecX& x, VecX& g) override;
  void hessian(const VecX& x, SparseMatrix& H, HessianKind kind) override;
  bool adaptiveFilter() const override { return projection_.filter == EigenvalueFilter::Adaptive; }
  SparseMatrix hessianPattern() const override { return model_.pattern().zeroMatrix(); }

  const PhysicalModel& model() const { return model_; }
  const StepProblem& problem() const { return problem_; }
  // The constant part of G's Hessian, M + c D + a b^2 h^2 (springs), plus
  // a b^2 h^2 `energyApproximation` (e.g. the PD Laplacian): a fixed SPD matrix for
  // L-BFGS and projective dynamics (all dofs; eliminate the Dirichlet ones yourself).
  SparseMatrix constantHessian(const SparseMatrix& energyApproximation) const;

 private:
  const PhysicalModel& model_;
  const StepProblem& problem_;
  HessianProjection projection_;
  double h2_;
};

}  // namespace softfit
