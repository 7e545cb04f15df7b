#include "scene/step_solver_selection.h"

#include "forward/errors.h"

namespace softfit {

StepSolverChoice parseStepSolverChoice(const JsonFields& f, IntegratorType scheme) {
  f.allowOnly({"type", "max_iterations", "decrement_tolerance", "lbfgs_window", "eigenvalue_filter"});
  if (!isIncrementalPotential(scheme))
    throw InputError(f.path() + ": a step solver applies to backward_euler, bdf2, implicit_midpoint and "
                                "newmark_trapezoid only (not " + integratorTypeName(scheme) + ")");
  const std::string type = f.string("type", "newton");
  StepSolverChoice choice;
  choice.maxIterations = f.integer("max_iterations", choice.maxIterations);
  if (choice.maxIterations < 1) throw InputError(f.field("max_iterations") + ": must be at least 1");
  if (type == "mfem") {
    f.allowOnly({"type", "max_iterations"});
    choice.mixedFem = true;
    return choice;
  }
  choice.type = parseStepSolverType(type, f.field("type"));
  if (f.has("decrement_tolerance")) {
    choice.decrementTolerance = f.number("decrement_tolerance");
    if (!(*choice.decrementTolerance >= 0.0))
      throw InputError(f.field("decrement_tolerance") + ": must be >= 0 (0 = a fixed budget of max_iterations)");
  }
  if (f.has("lbfgs_window")) {
    choice.lbfgsWindow = f.integer("lbfgs_window");
    if (*choice.lbfgsWindow < 1) throw InputError(f.field("lbfgs_window") + ": must be at least 1");
  }
  choice.filter = parseEigenvalueFilter(f.string("eigenvalue_filter", "clamp"), f.field("eigenvalue_filter"));
  return choice;
}

}  // namespace softfit
