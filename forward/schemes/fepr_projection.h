#pragma once
// FEPR energy-momentum projection (Dinev, Liu, Li, Thomaszewski, Kavan 2018; Dinev
// thesis): after a step of any integrator, the state z~ = (q~, v~) is projected back
// onto the manifold of the target total energy H = 1/2 v^T M v + E(q) and, for free
// bodies, the target linear momentum P = sum m v and angular momentum L = sum m q x v:
//   min  1/2 |dq|_M^2 + h^2/2 |dv|_M^2 + w/2 (s^2 |Dq|_M^2 + h^2 t^2 |Dv|_M^2)
//   s.t. c(q~ + dq + s Dq, v~ + dv + t Dv) = 0     (1 or 7 constraints)
// with Dq = q~ - q_n, Dv = v~ - v_n the step's increments. The slack variables s, t let
// the projection move cheaply along the step itself (a time re-scaling); w is their
// weight. Each iteration is a fast-projection step (Goldenthal et al. 2007): with J the
// Jacobian of c with respect to u = (dq, dv, s, t) and W the metric above, the 7x7
// Schur system (J W^-1 J^T) mu = -c gives the minimum-norm correction u += W^-1 J^T mu.
// Stops when |c|_1 < tolerance (absolute).
// Dirichlet dofs do not move.
#include "forward/energies/physical_model.h"
#include "forward/integrators/time_integrator.h"

namespace softfit {

enum class FeprConstraints {
  Energy,             // H only (bodies with Dirichlet nodes, gravity, contact)
  EnergyAndMomentum,  // H, P, L (free bodies without external forces)
};

struct FeprTarget {
  double energy = 0.0;
  Vec3 linearMomentum = Vec3::Zero();
  Vec3 angularMomentum = Vec3::Zero();
};

// Total energy, linear and angular momentum (about the origin) of a state.
FeprTarget conservedQuantities(const PhysicalModel& model, const State& state);

struct FeprOptions {
  FeprConstraints constraints = FeprConstraints::EnergyAndMomentum;
  double tolerance = 1e-7;  // on |c|_1 (absolute, in the model's energy / momentum units)
  int maxIterations = 30;
  double slackWeight = 1.0;  // w; <= 0 disables the slack variables
};

struct FeprResult {
  int iterations = 0;
  double residual = 0.0;  // |c|_1 at the returned state
  bool converged = false;
  double slackPosition = 0.0, slackVelocity = 0.0;  // s, t
};

// Projects `state` (the result of the step that started at `stepStart`, time step dt)
// in place. Throws InputError for momentum constraints on a body with Dirichlet nodes,
// SolveError on non-finite values; non-convergence is reported in the result.
FeprResult feprProject(const PhysicalModel& model, const FeprTarget& target, const State& stepStart, double dt,
                       State& state, const FeprOptions& options = {});

// Constraint values c (energy, then P, then L) of a state; size 1 or 7.
VecX feprConstraints(const PhysicalModel& model, const FeprTarget& target, const State& state,
                     FeprConstraints constraints);
// Their Jacobian, split into d/dq and d/dv (each 1 or 7 rows x 3N).
void feprConstraintJacobian(const PhysicalModel& model, const State& state, FeprConstraints constraints, MatX& Jq,
                            MatX& Jv);

}  // namespace softfit
