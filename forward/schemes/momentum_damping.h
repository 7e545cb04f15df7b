#pragma once
// Linear / angular momentum of a lumped-mass body and the momentum-preserving velocity
// damping of Position Based Dynamics (Mueller et al. 2007, section 3.5; used by Dinev's
// energy-aware integrators): every node's velocity is pulled towards the body's rigid
// motion v_cm + omega x r_i,
//   v_i <- v_i + k (v_cm + omega x r_i - v_i),   omega = I^{-1} L,
// which removes k of the non-rigid kinetic energy and keeps P and L exactly.
#include "forward/types.h"

namespace softfit {

// P = sum_i m_i v_i (mass is the lumped mass per dof, size 3N).
Vec3 linearMomentum(const VecX& mass, const VecX& v);
// L = sum_i m_i x_i x v_i (about the origin).
Vec3 angularMomentum(const VecX& mass, const VecX& x, const VecX& v);

struct RigidMotion {
  Vec3 centerOfMass = Vec3::Zero();
  Vec3 velocity = Vec3::Zero();         // v_cm = P / m
  Vec3 angularVelocity = Vec3::Zero();  // omega = I^{-1} L_cm (0 when I is singular)
};

// The best-fitting rigid motion (least squares in the mass norm) of the velocity field.
RigidMotion rigidMotionOf(const VecX& mass, const VecX& x, const VecX& v);

// Applies the PBD damping with stiffness k in [0, 1] to v (k = 1 leaves only the rigid
// motion). Throws std::invalid_argument for k outside [0, 1].
void applyMomentumPreservingDamping(const VecX& mass, const VecX& x, double k, VecX& v);

}  // namespace softfit
