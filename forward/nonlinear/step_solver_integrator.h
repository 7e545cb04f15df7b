#pragma once
// A TimeIntegrator for the incremental-potential schemes (BE, BDF2, implicit midpoint,
// Newmark trapezoid) whose step minimization is done by any StepSolver. With
// decrementTolerance > 0 a step that does not converge throws SolveError; with 0 every
// step runs a fixed budget of maxIterations (real-time mode, Liu 2017) and never throws
// for non-convergence. The adjoint is IncrementalPotentialIntegrator's, valid when the
// steps are converged tightly.
#include <memory>

#include "forward/nonlinear/step_solver.h"

namespace softfit {

class StepSolverIntegrator final : public TimeIntegrator {
 public:
  StepSolverIntegrator(const IntegratorSettings& integrator, const StepSolverSettings& solver);
  State step(PhysicalModel& model, const State& current, const State* previous, double dt) override;
  void adjointStep(PhysicalModel& model, const State& next, const State& current, const State* previous, double dt,
                   StepAdjoint& adjoint) override;
  IntegratorType type() const override { return settings_.type; }
  void reset() override { solver_->reset(); }
  const StepSolveResult& lastSolve() const { return lastSolve_; }

 private:
  IntegratorSettings settings_;
  std::unique_ptr<StepSolver> solver_;
  IncrementalPotentialIntegrator velocityAndAdjoint_;
  StepSolveResult lastSolve_;
};

}  // namespace softfit
