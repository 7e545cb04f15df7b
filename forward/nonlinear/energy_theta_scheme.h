#pragma once
// The theta family between implicit midpoint (theta = 1/2) and backward Euler
// (theta = 1) as an incremental potential (DESIGN.md section 2):
//   x_{n+1} = x_n + h ((1 - theta) v_n + theta v_{n+1}),
//   v_{n+1} = v_n + h M^-1 f(x_n + theta (x_{n+1} - x_n))
//   <=> x_{n+1} = argmin 1/2 |x - (x_n + h v_n)|_M^2 + h^2 E(theta x + (1 - theta) x_n)
//                        + theta h / 2 (x - x_n)^T D (x - x_n),
// and a Newton objective for any IncrementalPotentialCoefficients (the same potential
// as IncrementalPotentialIntegrator minimizes, which keeps its objective private).
#include "forward/integrators/incremental_potential_integrator.h"

namespace softfit {

IncrementalPotentialCoefficients thetaSchemeCoefficients(const State& current, double theta, double dt);
VecX thetaSchemeVelocity(const VecX& x, const State& current, double theta, double dt);

// G(x) = 1/2 (x - y)^T M (x - y) + a h^2 E(b x + z) + c/2 (x - r)^T D (x - r).
class IncrementalPotentialObjective final : public NewtonObjective {
 public:
  // D may be empty (no damping). References must outlive the objective.
  IncrementalPotentialObjective(const PhysicalModel& model, const IncrementalPotentialCoefficients& c,
                                const SparseMatrix& D, double dt, EigenvalueFilter filter, double filterEpsilon);
  double value(const VecX& x) override;
  void gradient(const VecX& x, VecX& g) override;
  void hessian(const VecX& x, SparseMatrix& H, bool exact) override;
  SparseMatrix hessianPattern() const override { return model_.pattern().zeroMatrix(); }

 private:
  const PhysicalModel& model_;
  const IncrementalPotentialCoefficients& c_;
  const SparseMatrix& D_;
  double h2_;
  EigenvalueFilter filter_;
  double filterEpsilon_;
  bool damped_;
};

}  // namespace softfit
