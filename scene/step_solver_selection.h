#pragma once
// The scene's "integrator.solver" object: which minimizer solves each step of an
// incremental-potential scheme (forward/nonlinear/): projected Newton (the default when
// the object is absent), L-BFGS with the Laplacian initial matrix, projective dynamics
// (ARAP), or mixed FEM. Parsed into plain settings (IntegratorSettings::stepSolver);
// the integrator registry (forward/registry/) builds the integrator.
//   "solver": {"type": "lbfgs", "max_iterations": 200, "decrement_tolerance": 1e-9,
//              "lbfgs_window": 5}
#include "forward/integrators/integrator_settings.h"
#include "forward/io/json_fields.h"

namespace softfit {

// InputError naming the field for an unknown type or option, bad values, or a scheme
// that is not an incremental potential (newmark_theta, quasi_static).
StepSolverChoice parseStepSolverChoice(const JsonFields& solver, IntegratorType scheme);

}  // namespace softfit
