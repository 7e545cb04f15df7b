#pragma once
// What a scene says about its integrator, as plain data: the scheme, its options and the
// optional step solver. Parsing these (scene/) builds nothing; the integrator registry
// (forward/registry/integrator_registry.h) turns them into a TimeIntegrator.
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "forward/materials/material.h"
#include "forward/math/psd_projection.h"
#include "forward/solvers/newton_solver.h"

namespace softfit {

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
// BackwardEuler, BDF2, ImplicitMidpoint, NewmarkTrapezoid: a step minimizes an
// incremental potential, so any step solver can do it.
bool isIncrementalPotential(IntegratorType type);

// The thesis system is linear in a per-element frame: InputError naming
// integrator.type and material.model unless `model` is linear or warped corotated.
void requireNewmarkThetaMaterial(MaterialModel model);

// Preconditioner of the NewmarkTheta PCG solves (warped corotation or contact).
enum class PcgPreconditioner {
  Auto,       // Multigrid when the model has node lattice coordinates (grid scenes), else Cholesky
  Cholesky,   // cached CHOLMOD factor of an earlier system matrix
  Multigrid,  // geometric multigrid V-cycle on the node lattice; Cholesky when the model has none
};

PcgPreconditioner parsePcgPreconditioner(const std::string& name,
                                         const std::string& field = "integrator.preconditioner");
std::string pcgPreconditionerName(PcgPreconditioner preconditioner);

// The minimizers of forward/nonlinear/step_solver.h.
enum class StepSolverType { Newton, Lbfgs, ProjectiveDynamics };
// "newton", "lbfgs", "pd"; throws InputError naming `field` otherwise.
StepSolverType parseStepSolverType(const std::string& name, const std::string& field);
std::string stepSolverTypeName(StepSolverType type);

// The scene's "integrator.solver": which minimizer solves each step of an
// incremental-potential scheme. Unset options keep StepSolverSettings' defaults.
struct StepSolverChoice {
  bool mixedFem = false;  // "mfem": the mixed-FEM scheme (forward/schemes/) instead of a step solver
  StepSolverType type = StepSolverType::Newton;
  int maxIterations = 100;
  std::optional<double> decrementTolerance;
  std::optional<int> lbfgsWindow;
  std::optional<EigenvalueFilter> filter;
};

class TimeIntegrator;
struct IntegratorSettings;
// Builds the integrator for given settings (the CUDA backend's makeCudaIntegrator).
using IntegratorFactory = std::function<std::unique_ptr<TimeIntegrator>(const IntegratorSettings&)>;

struct IntegratorSettings {
  IntegratorType type = IntegratorType::BackwardEuler;
  // Unset: the scheme's own projected Newton (IncrementalPotentialIntegrator).
  std::optional<StepSolverChoice> stepSolver;
  // The device hook: when set, makeIntegrator delegates to it (`--device cuda`, set by
  // apps/commands/device_option.cpp); the factory must not call makeIntegrator with the
  // same settings.
  IntegratorFactory factory;
  double theta = 0.6;  // NewmarkTheta, 1/2 <= theta < 1
  NewtonOptions newton;
  // Exact Hessian whenever its Cholesky succeeds, clamp otherwise (psd_projection.h).
  EigenvalueFilter filter = EigenvalueFilter::ExactFirst;
  double filterEpsilon = 0.0;
  double pcgTolerance = 1e-12;   // NewmarkTheta with warped corotation or contact
  int pcgRefactorIterations = 20;  // refactorize the preconditioner past this
  PcgPreconditioner preconditioner = PcgPreconditioner::Auto;
  // Multigrid: rebuild the coarse levels (kept from an earlier step) after a step that
  // needed more than multigridRebuildIterations PCG iterations, or more than
  // multigridRebuildGrowth times what the first solve after the last rebuild needed; a
  // step may use up to pcgMaxIterations. The growth rule since the planned Galerkin
  // products (2026-11-27): a rebuild costs ~3-5 PCG iterations' worth on the thesis
  // bunny, whose fresh levels need ~15 iterations and stale ones drift to ~31.
  int multigridRebuildIterations = 30;
  double multigridRebuildGrowth = 1.25;
  // Multigrid with ground contact: carry the contact springs to the coarse levels at
  // every step (false: the coarse levels keep the contact of their last rebuild).
  bool multigridContactLevels = true;
  int pcgMaxIterations = 500;
  // Threads of the NewmarkTheta sparse products (multigrid levels, K u); <= 0: all cores
  // for large matrices. Results are bit-identical run to run for a given count.
  int solverThreads = 0;
};

}  // namespace softfit
