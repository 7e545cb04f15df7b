#include "scene/step_solver_selection.h"

#include "forward/errors.h"
#include "forward/schemes/mixed_fem_integrator.h"
#include "forward/nonlinear/step_solver_integrator.h"

namespace softfit {

IntegratorFactory parseStepSolverFactory(const JsonFields& f, IntegratorType scheme) {
  f.allowOnly({"type", "max_iterations", "decrement_tolerance", "lbfgs_window", "eigenvalue_filter"});
  if (scheme == IntegratorType::NewmarkTheta || scheme == IntegratorType::QuasiStatic)
    throw InputError(f.path() + ": a step solver applies to backward_euler, bdf2, implicit_midpoint and "
                                "newmark_trapezoid only (not " + integratorTypeName(scheme) + ")");
  const std::string type = f.string("type", "newton");
  const int maxIterations = f.integer("max_iterations", 100);
  if (maxIterations < 1) throw InputError(f.field("max_iterations") + ": must be at least 1");
  if (type == "mfem") {
    f.allowOnly({"type", "max_iterations"});
    MixedFemSettings settings;
    settings.scheme = scheme;
    settings.maxIterations = maxIterations;
    return [settings](const IntegratorSettings&) { return std::make_unique<MixedFemIntegrator>(settings); };
  }
  StepSolverSettings solver;
  solver.type = parseStepSolverType(type, f.field("type"));
  solver.maxIterations = maxIterations;
  solver.decrementTolerance = f.number("decrement_tolerance", solver.decrementTolerance);
  if (!(solver.decrementTolerance >= 0.0))
    throw InputError(f.field("decrement_tolerance") + ": must be >= 0 (0 = a fixed budget of max_iterations)");
  solver.lbfgsWindow = f.integer("lbfgs_window", solver.lbfgsWindow);
  if (solver.lbfgsWindow < 1) throw InputError(f.field("lbfgs_window") + ": must be at least 1");
  solver.projection.filter =
      parseEigenvalueFilter(f.string("eigenvalue_filter", "clamp"), f.field("eigenvalue_filter"));
  return [solver](const IntegratorSettings& s) { return std::make_unique<StepSolverIntegrator>(s, solver); };
}

}  // namespace softfit
