#include "forward/registry/integrator_registry.h"

#include <stdexcept>

#include "forward/integrators/incremental_potential_integrator.h"
#include "forward/integrators/newmark_theta_integrator.h"
#include "forward/integrators/quasi_static_solver.h"
#include "forward/nonlinear/step_solver_integrator.h"
#include "forward/schemes/mixed_fem_integrator.h"

namespace softfit {

namespace {

bool usesStepSolver(const IntegratorSettings& s) { return s.stepSolver && !s.stepSolver->mixedFem; }
bool usesMixedFem(const IntegratorSettings& s) { return s.stepSolver && s.stepSolver->mixedFem; }

std::unique_ptr<TimeIntegrator> makeStepSolverIntegrator(const IntegratorSettings& s) {
  const StepSolverChoice& choice = *s.stepSolver;
  StepSolverSettings solver;
  solver.type = choice.type;
  solver.maxIterations = choice.maxIterations;
  if (choice.decrementTolerance) solver.decrementTolerance = *choice.decrementTolerance;
  if (choice.lbfgsWindow) solver.lbfgsWindow = *choice.lbfgsWindow;
  if (choice.filter) solver.projection.filter = *choice.filter;
  return std::make_unique<StepSolverIntegrator>(s, solver);
}

std::unique_ptr<TimeIntegrator> makeMixedFemIntegrator(const IntegratorSettings& s) {
  MixedFemSettings settings;
  settings.scheme = s.type;
  settings.maxIterations = s.stepSolver->maxIterations;
  return std::make_unique<MixedFemIntegrator>(settings);
}

}  // namespace

const std::vector<IntegratorDescriptor>& integratorRegistry() {
  static const std::vector<IntegratorDescriptor> table = {
      {"newmark_theta", "thesis Newmark-theta linear system (linear / warped corotated)",
       [](const IntegratorSettings& s) { return s.type == IntegratorType::NewmarkTheta && !s.stepSolver; },
       [](const IntegratorSettings& s) -> std::unique_ptr<TimeIntegrator> {
         return std::make_unique<NewmarkThetaIntegrator>(s);
       },
       /*runsOnCuda*/ true},
      {"quasi_static", "static equilibrium per step",
       [](const IntegratorSettings& s) { return s.type == IntegratorType::QuasiStatic && !s.stepSolver; },
       [](const IntegratorSettings& s) -> std::unique_ptr<TimeIntegrator> {
         return std::make_unique<QuasiStaticSolver>(s);
       },
       false},
      {"incremental_potential", "BE / BDF2 / implicit midpoint / Newmark trapezoid, built-in projected Newton",
       [](const IntegratorSettings& s) { return isIncrementalPotential(s.type) && !s.stepSolver; },
       [](const IntegratorSettings& s) -> std::unique_ptr<TimeIntegrator> {
         return std::make_unique<IncrementalPotentialIntegrator>(s);
       },
       false},
      {"step_solver", "an incremental-potential scheme minimized by integrator.solver (newton, lbfgs, pd)",
       [](const IntegratorSettings& s) { return isIncrementalPotential(s.type) && usesStepSolver(s); },
       makeStepSolverIntegrator, false},
      {"mixed_fem", "an incremental-potential scheme in mixed FEM (integrator.solver.type \"mfem\")",
       [](const IntegratorSettings& s) { return isIncrementalPotential(s.type) && usesMixedFem(s); },
       makeMixedFemIntegrator, false},
  };
  return table;
}

const IntegratorDescriptor& findIntegrator(const IntegratorSettings& settings) {
  for (const IntegratorDescriptor& d : integratorRegistry())
    if (d.selects(settings)) return d;
  throw std::logic_error("no registered integrator for integrator.type \"" + integratorTypeName(settings.type) +
                         "\"" + (settings.stepSolver ? " with a step solver" : ""));
}

std::unique_ptr<TimeIntegrator> makeIntegrator(const IntegratorSettings& settings) {
  if (settings.factory) return settings.factory(settings);
  return findIntegrator(settings).make(settings);
}

}  // namespace softfit
