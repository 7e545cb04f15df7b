#pragma once
// Mixed FEM time stepping (Trusty, Kaufman, Levin, "Mixed variational finite elements
// for implicit simulation of deformables", SIGGRAPH Asia 2022). The incremental potential
// of a scheme (BE, BDF2, ... via IncrementalPotentialCoefficients)
//   G(x) = 1/2 |x - y|_M^2 + a h^2 [E_ext(u) + sum_q w_q Psi(s(F_q(u)))] + damping,
//   u = b x + z,
// is solved with one stretch 6-vector s_q per quadrature point as an extra variable and
// multipliers lambda_q for s_q = s(F_q(u)) (mixed_fem_stretch.h). Each iteration
// linearizes the KKT system (Gauss-Newton in the constraint: lambda^T d2 s/dx2 is
// dropped) and condenses s and lambda out:
//   (M + a b^2 h^2 Hess E_ext + c D + a h^2 sum_q w_q J_q^T H_q J_q) dx
//       = -grad_x(inertia + ext + damping) - a h^2 sum_q w_q J_q^T (g_q + H_q r_q),
//   ds_q = r_q + J_q dx,      lambda_q = a h^2 (g_q + H_q ds_q),
// with r_q = s(F_q(u)) - s_q, J_q = b ds/du_q, g_q, H_q the stretch energy's gradient
// and PSD-projected Hessian at s_q. (dx, ds) is a descent direction of the merit
// function (the Lagrangian at the new multipliers), which a backtracking Armijo line
// search decreases. s and lambda carry over between steps. A converged step minimizes
// G exactly (the same x as Newton on the F-based material); the adjoint therefore is
// that of IncrementalPotentialIntegrator, valid only for tightly converged steps.
#include <memory>
#include <vector>

#include "forward/integrators/incremental_potential_integrator.h"
#include "forward/schemes/mixed_fem_stretch_energy.h"

namespace softfit {

struct MixedFemSettings {
  IntegratorType scheme = IntegratorType::BackwardEuler;  // BE, BDF2 (IM, trapezoid also work)
  int maxIterations = 100;
  double stepTolerance = 1e-10;     // on |dx|_inf, relative to the body size
  double stretchTolerance = 1e-10;  // on max |s(F(x)) - s| and |ds|_inf (dimensionless)
  bool requireConvergence = true;   // false: a capped solve returns its last iterate
  double armijo = 1e-8;
  double backtrack = 0.5;
  int maxLineSearchSteps = 40;
  EigenvalueFilter stretchFilter = EigenvalueFilter::Clamp;  // on the 6x6 H_q
  double stretchFilterEpsilon = 0.0;
};

struct MixedFemStepInfo {
  int iterations = 0;
  bool converged = false;
  double stepNorm = 0.0;           // last |dx|_inf
  double constraintResidual = 0.0; // max |s(F(x)) - s| at the returned state
  int lineSearchCuts = 0;          // backtracking halvings over the step
};

class MixedFemIntegrator final : public TimeIntegrator {
 public:
  // Throws InputError when the scheme is not an incremental potential.
  explicit MixedFemIntegrator(const MixedFemSettings& settings);
  ~MixedFemIntegrator() override;
  // Throws InputError for materials without a stretch form; SolveError when
  // requireConvergence is set and the solve does not converge, or on non-finite values.
  State step(PhysicalModel& model, const State& current, const State* previous, double dt) override;
  void adjointStep(PhysicalModel& model, const State& next, const State& current, const State* previous, double dt,
                   StepAdjoint& adjoint) override;
  IntegratorType type() const override { return settings_.scheme; }
  void reset() override;

  const MixedFemStepInfo& lastInfo() const { return info_; }
  // Stretch variables and multipliers per quadrature point (element-major order).
  const std::vector<Vec6>& stretches() const { return s_; }
  const std::vector<Vec6>& multipliers() const { return lambda_; }

 private:
  struct Workspace;
  MixedFemSettings settings_;
  IncrementalPotentialIntegrator scheme_;
  std::vector<Vec6> s_, lambda_;
  MixedFemStepInfo info_;
  std::unique_ptr<Workspace> work_;
};

}  // namespace softfit
