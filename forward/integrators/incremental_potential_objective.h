#pragma once
// The incremental potential of one step (DESIGN.md section 2) as a Newton objective:
//   G(x) = 1/2 (x - y)^T M (x - y) + a h^2 E(b x + z) + c/2 (x - r)^T D (x - r)
// with the scheme's coefficients (IncrementalPotentialCoefficients) and D the lagged
// Rayleigh damping matrix. Used by IncrementalPotentialIntegrator and the energy-aware
// schemes of forward/nonlinear/.
#include "forward/integrators/incremental_potential_integrator.h"

namespace softfit {

class IncrementalPotentialObjective final : public NewtonObjective {
 public:
  // D is used when the model's damping is active and D has the model's size (it may be
  // empty otherwise). References must outlive the objective.
  IncrementalPotentialObjective(const PhysicalModel& model, const IncrementalPotentialCoefficients& c,
                                const SparseMatrix& D, double dt, EigenvalueFilter filter, double filterEpsilon);
  double value(const VecX& x) override;
  void gradient(const VecX& x, VecX& g) override;
  // H must have the model's pattern.
  void hessian(const VecX& x, SparseMatrix& H, HessianKind kind) override;
  bool adaptiveFilter() const override { return filter_ == EigenvalueFilter::Adaptive; }
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
