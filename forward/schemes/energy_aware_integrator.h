#pragma once
// Energy-aware time stepping (Dinev, Liu, Kavan 2018 "Stabilizing integrators for
// real-time physics"; Dinev thesis ch.3), which blends implicit midpoint with backward
// Euler (to remove energy) and towards forward Euler (to add it back). Each step is a
// member of the theta family (forward/schemes/energy_theta_scheme.h),
//   theta = (1 + beta) / 2:  beta = 0 implicit midpoint, beta = 1 backward Euler,
//   beta < 0 (theta down to minimumTheta) leans towards forward Euler and adds energy.
// An energy ledger holds the target total energy H_target: the initial H minus what
// physical damping removed (Rayleigh damping (x - x_n)^T D (x - x_n) / h of the step, the
// kinetic energy removed by PBD damping). Per step:
//   1. solve at the previous step's beta; accept when |H - H_target| <= eps |H_target|;
//   2. otherwise solve at the end of [2 minimumTheta - 1, 1] that moves H towards the
//      target (1 when H is too high), and refine the bracketed root of H(beta) - H_target
//      by Illinois regula falsi, one Newton solve per evaluation, until inside the band
//      (or maxBlendSolves; then the closest candidate is kept and inBand is false);
//   3. optional PBD momentum-preserving damping of the velocities (charged to the ledger);
//   4. optional FEPR post-step onto the ledger's energy (and the step start's momenta).
// With minimumTheta = 0.5 the blend is IM/BE only and cannot add energy back.
// Intended for conservative scenes (no moving Dirichlet nodes: their work is not
// booked). The step has no adjoint.
#include "forward/integrators/time_integrator.h"
#include "forward/schemes/fepr_projection.h"

namespace softfit {

struct EnergyAwareSettings {
  double energyTolerance = 0.01;  // eps: relative band around H_target
  int maxBlendSolves = 12;        // Newton solves per step in the blend search
  double minimumTheta = 0.25;     // smallest theta (0.5: IM/BE blend only)
  NewtonOptions newton;           // stepTolerance is relative to the body size
  EigenvalueFilter filter = EigenvalueFilter::Clamp;
  double filterEpsilon = 0.0;
  double momentumDamping = 0.0;   // PBD damping k in [0, 1] per step (0: off)
  bool projectEnergyMomentum = false;  // FEPR post-step onto the ledger's energy
  FeprOptions fepr;
};

struct EnergyAwareStepInfo {
  double blend = 0.0;          // beta of the accepted step (0 = IM, 1 = BE, < 0 towards FE)
  int solves = 0;              // Newton solves in the blend search
  double energy = 0.0;         // H of the returned state
  double targetEnergy = 0.0;   // ledger target after this step
  bool inBand = false;         // |H - H_target| <= eps |H_target| before FEPR
  FeprResult fepr;             // when projectEnergyMomentum
};

class EnergyAwareIntegrator final : public TimeIntegrator {
 public:
  explicit EnergyAwareIntegrator(const EnergyAwareSettings& settings);
  State step(PhysicalModel& model, const State& current, const State* previous, double dt) override;
  // Not implemented: throws std::logic_error.
  void adjointStep(PhysicalModel& model, const State& next, const State& current, const State* previous, double dt,
                   StepAdjoint& adjoint) override;
  // There is no IntegratorType for this scheme yet; it reports its base scheme.
  IntegratorType type() const override { return IntegratorType::ImplicitMidpoint; }
  void reset() override;

  const EnergyAwareStepInfo& lastInfo() const { return info_; }
  // The ledger is initialized from the first state stepped (or set here).
  void setTargetEnergy(double target);
  double targetEnergy() const { return target_; }

 private:
  EnergyAwareSettings settings_;
  NewtonSolver newton_;
  SparseMatrix damping_;
  double target_ = 0.0;
  bool ledgerStarted_ = false;
  double blend_ = 0.0;
  EnergyAwareStepInfo info_;
};

}  // namespace softfit
