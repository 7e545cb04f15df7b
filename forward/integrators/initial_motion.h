#pragma once
// The initial rigid motion of a body: v_i = v0 + w x (X_i - c) on every node that no
// Dirichlet group holds (X_i the rest positions, c the rotation centre), and its reverse
// step. The scene builder sets the initial velocities with it, and the parameter space
// (adjoint/parameter_space.h) re-applies it and chains dL/dv_0 to dL/d(v0, w).
#include "forward/energies/physical_model.h"

namespace softfit {

struct InitialMotion {
  Vec3 velocity = Vec3::Zero();         // v0
  Vec3 angularVelocity = Vec3::Zero();  // w
  Vec3 center = Vec3::Zero();           // c
};

// The mass-weighted centroid of the rest shape (the default rotation centre).
Vec3 restCenterOfMass(const PhysicalModel& model);

// Writes v_i = v0 + w x (X_i - c) for every free node of `model` into v (3N); the
// velocities of Dirichlet nodes are left as they are.
void applyInitialMotion(const PhysicalModel& model, const InitialMotion& motion, VecX& v);

// Reverse of applyInitialMotion: adds sum_i vBar_i to velocityBar and
// sum_i (X_i - c) x vBar_i to angularBar, over the free nodes.
void addInitialMotionAdjoint(const PhysicalModel& model, const InitialMotion& motion, const VecX& vBar,
                             Vec3& velocityBar, Vec3& angularBar);

}  // namespace softfit
