#pragma once
// Time integrators advance a PhysicalModel by one step. All states of a run can be
// kept as a checkpoint list (forward/integrators/trajectory.h) for the adjoint.
#include <functional>
#include <memory>
#include <string>

#include "forward/energies/physical_model.h"
#include "forward/integrators/step_adjoint.h"
#include "forward/solvers/newton_solver.h"

namespace softfit {

struct State {
  VecX x;             // positions (3N)
  VecX v;             // velocities (3N)
  double time = 0.0;
};

enum class IntegratorType {
  NewmarkTheta,      // thesis "Newmark 1" linear system (linear / warped corotated only)
  BackwardEuler,
  BDF2,
  ImplicitMidpoint,
  NewmarkTrapezoid,  // gamma = 1/2, beta = 1/4 as an incremental potential
  QuasiStatic,
};

IntegratorType parseIntegratorType(const std::string& name, const std::string& field = "integrator.type");
std::string integratorTypeName(IntegratorType type);

struct StepStatistics {
  int iterations = 0;       // Newton iterations or PCG iterations
  bool converged = true;
  double residual = 0.0;    // final gradient / relative residual norm
  int factorizations = 0;
};

class TimeIntegrator {
 public:
  virtual ~TimeIntegrator() = default;
  // Returns the state at current.time + dt. `previous` is the state before `current`
  // (nullptr on the first step); multistep schemes use it. Throws SolveError when
  // the step's solve fails.
  virtual State step(PhysicalModel& model, const State& current, const State* previous, double dt) = 0;
  // Reverse pass of the step that produced `next` from `current` (and `previous`):
  // the implicit function theorem on the step's residual with its exact (unfiltered)
  // Jacobian, evaluated at the stored states (matrices are recomputed, never stored).
  // Throws SolveError when the adjoint system cannot be solved.
  virtual void adjointStep(PhysicalModel& model, const State& next, const State& current, const State* previous,
                           double dt, StepAdjoint& adjoint) = 0;
  virtual IntegratorType type() const = 0;
  // Drops anything cached from earlier steps (factorizations, constant operators);
  // called at the start of every run so parameter changes between runs take effect.
  virtual void reset() {}
  const StepStatistics& lastStep() const { return last_; }

 protected:
  StepStatistics last_;
};

// Preconditioner of the NewmarkTheta PCG solves (warped corotation or contact).
enum class PcgPreconditioner {
  Auto,       // Multigrid when the model has node lattice coordinates (grid scenes), else Cholesky
  Cholesky,   // cached CHOLMOD factor of an earlier system matrix
  Multigrid,  // geometric multigrid V-cycle on the node lattice; Cholesky when the model has none
};

PcgPreconditioner parsePcgPreconditioner(const std::string& name,
                                         const std::string& field = "integrator.preconditioner");
std::string pcgPreconditionerName(PcgPreconditioner preconditioner);

struct IntegratorSettings;
// Builds the integrator for given settings (e.g. the CUDA backend's makeCudaIntegrator).
using IntegratorFactory = std::function<std::unique_ptr<TimeIntegrator>(const IntegratorSettings&)>;

struct IntegratorSettings {
  IntegratorType type = IntegratorType::BackwardEuler;
  // When set, makeIntegrator delegates to it (another device: `--device cuda`); the
  // factory must not call makeIntegrator with the same settings.
  IntegratorFactory factory;
  double theta = 0.6;  // NewmarkTheta, 1/2 <= theta < 1
  NewtonOptions newton;
  // Exact Hessian whenever its Cholesky succeeds, clamp otherwise (psd_projection.h).
  EigenvalueFilter filter = EigenvalueFilter::ExactFirst;
  double filterEpsilon = 0.0;
  double pcgTolerance = 1e-12;   // NewmarkTheta with warped corotation or contact
  int pcgRefactorIterations = 20;  // refactorize the preconditioner past this
  PcgPreconditioner preconditioner = PcgPreconditioner::Auto;
  // Multigrid: rebuild the coarse levels (kept from an earlier step) past this many PCG
  // iterations in a step; a step may use up to pcgMaxIterations.
  int multigridRebuildIterations = 30;
  // Multigrid with ground contact: carry the contact springs to the coarse levels at
  // every step (false: the coarse levels keep the contact of their last rebuild).
  bool multigridContactLevels = true;
  int pcgMaxIterations = 500;
  // Threads of the NewmarkTheta sparse products (multigrid levels, K u); <= 0: all cores
  // for large matrices. Results are bit-identical run to run for a given count.
  int solverThreads = 0;
};

std::unique_ptr<TimeIntegrator> makeIntegrator(const IntegratorSettings& settings);

}  // namespace softfit
