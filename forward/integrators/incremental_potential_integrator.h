#pragma once
// Backward Euler, BDF2, implicit midpoint and Newmark trapezoid written as incremental
// potentials (docs/theory.rst, section 2):
//   G(x) = 1/2 (x - y)^T M (x - y) + a h^2 E(b x + z) + c/2 (x - r)^T D (x - r)
// with D = alpha1 M + alpha2 K(x_n) the lagged Rayleigh damping matrix. Each step
// minimizes G with projected Newton and recovers v_{n+1} from the scheme.
#include "forward/integrators/time_integrator.h"

namespace softfit {

// Scheme coefficients for one step, exposed so the adjoint can reuse them.
struct IncrementalPotentialCoefficients {
  double a = 1.0, b = 1.0;  // energy weight and argument scale
  VecX y;                   // inertial target
  VecX z;                   // energy argument shift
  double dampingWeight = 0.0;  // c (the scheme's weight, also when D = 0)
  VecX dampingReference;       // r
  // Weight of E's Hessian in G's Hessian: a b^2 h^2.
  double energyHessianWeight(double h) const { return a * b * b * (h * h); }
};

class IncrementalPotentialIntegrator final : public TimeIntegrator {
 public:
  explicit IncrementalPotentialIntegrator(const IntegratorSettings& settings);
  State step(PhysicalModel& model, const State& current, const State* previous, double dt) override;
  IntegratorType type() const override { return settings_.type; }
  void adjointStep(PhysicalModel& model, const State& next, const State& current, const State* previous, double dt,
                   StepAdjoint& adjoint) override;  // incremental_potential_adjoint.cpp

  // Coefficients of the scheme for this step (BDF2 falls back to BE without `previous`).
  IncrementalPotentialCoefficients coefficients(const PhysicalModel& model, const State& current,
                                                const State* previous, double dt) const;
  // Velocity at the new positions x.
  VecX velocity(const VecX& x, const State& current, const State* previous, double dt) const;

 private:
  IntegratorSettings settings_;
  NewtonSolver newton_;
  CholeskySolver adjointSolver_;
};

}  // namespace softfit
