#pragma once
// The scene's "integrator.solver" object: which minimizer solves each step of an
// incremental-potential scheme (forward/nonlinear/): projected Newton (the default when
// the object is absent), L-BFGS with the Laplacian initial matrix, projective dynamics
// (ARAP), or mixed FEM. Turned into IntegratorSettings::factory.
//   "solver": {"type": "lbfgs", "max_iterations": 200, "decrement_tolerance": 1e-9,
//              "lbfgs_window": 5}
#include "forward/integrators/time_integrator.h"
#include "forward/io/json_fields.h"

namespace softfit {

// InputError naming the field for an unknown type or option, bad values, or a scheme
// that is not an incremental potential (newmark_theta, quasi_static).
IntegratorFactory parseStepSolverFactory(const JsonFields& solver, IntegratorType scheme);

}  // namespace softfit
