#pragma once
// Quasi-static equilibrium: each "step" minimizes the potential energy E(x) (elastic +
// gravity + contact + springs) with the Dirichlet positions of the new time.
#include "forward/integrators/time_integrator.h"

namespace softfit {

class QuasiStaticSolver final : public TimeIntegrator {
 public:
  explicit QuasiStaticSolver(const IntegratorSettings& settings);
  State step(PhysicalModel& model, const State& current, const State* previous, double dt) override;
  IntegratorType type() const override { return IntegratorType::QuasiStatic; }
  void adjointStep(PhysicalModel& model, const State& next, const State& current, const State* previous, double dt,
                   StepAdjoint& adjoint) override;  // quasi_static_adjoint.cpp
  // Equilibrium from the initial guess x (Dirichlet positions at time t applied).
  VecX solve(PhysicalModel& model, VecX x, double t);

 private:
  IntegratorSettings settings_;
  NewtonSolver newton_;
  CholeskySolver adjointSolver_;
};

}  // namespace softfit
