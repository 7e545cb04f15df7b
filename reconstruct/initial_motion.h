#pragma once
// The initial rigid motion of a thrown, dropped or pushed object, from the motion frames
// before it first touches the floor.
//
// 1. Each motion frame k = 1, 2, ... is registered to the rest surface (the fused rest
//    shape, surface_registration.h), frame k starting from the pose extrapolated from
//    frames k-1 and k-2: the pose (R_k, t_k) with points ~= R_k X + t_k.
// 2. The rigid flight is fitted to frames 1..K by least squares:
//      c_k = c + v t_k + a t_k^2 / 2     (c = the rest shape's centre of mass, carried by
//                                         the pose; a = gravity in free flight)
//      theta_k = omega t_k [+ alpha t_k^2 / 2]   (theta = rotation vector of R_k; the
//                                         quadratic term, from `quadraticFrames` frames
//                                         on, is the precession of a body spinning
//                                         about no principal axis: the Magnus expansion
//                                         of R(t) is omega t + alpha t^2 / 2 + O(t^3))
//    with t_k = k dt. The centre of mass moves on a parabola whatever the spin, so v is
//    the velocity at c and the scene's rigid start is taken about c.
//    v comes from the first `velocityFrames` of those frames, omega from all of them.
// 3. Free flight ends at the first frame that departs from the flight fitted to the
//    frames before it by more than max(positionTolerance, deviationFactor x the fit's
//    RMS): the floor's push or a deformation. Only the frames before it are used, so a
//    bounce's deformation is not read as a spin.
// 4. Two flights are tried: free (a = gravity) and sliding on the floor (a = gravity
//    without its component along the ground normal: the contact is frictionless). The
//    one that explains more frames is kept (on ties the one with the smaller RMS).
#include <vector>

#include "forward/mesh/triangle_surface.h"
#include "observations/point_cloud.h"
#include "reconstruct/surface_registration.h"

namespace softfit {

struct InitialMotionOptions {
  int frames = 15;  // at most motion frames 1..frames are registered; 0 = no estimate
  bool angular = true;  // estimate the angular velocity (else 0)
  double positionTolerance = 0.003;  // m; reconstruct raises it to half a voxel
  double deviationFactor = 4.0;
  int quadraticFrames = 6;  // frames used from which theta gets the alpha t^2 / 2 term
  // v is fitted to the first `velocityFrames` frames of the flight only (0: all of it).
  // A force the flight does not model biases v by about (force / mass) x the window / 2:
  // a body launched off a soft contact is still pushed in its first frames (the bench
  // box: v_y +0.3% from 3 frames, +2.8% from 6, +4.7% from 15), while the spin is
  // measured better the longer the window (its error falls as window^-1.5).
  int velocityFrames = 3;
  SurfaceRegistrationOptions registration;
};

struct InitialMotionEstimate {
  bool estimated = false;
  Vec3 velocity = Vec3::Zero();         // of `center`
  Vec3 angularVelocity = Vec3::Zero();  // world frame, rad/s
  Vec3 center = Vec3::Zero();           // the rest shape's centre of mass
  int framesUsed = 0;                   // frames 1..framesUsed
  int framesRegistered = 0;
  bool sliding = false;                 // the sliding flight explained the frames better
  double rmsResidual = 0.0;   // RMS point-to-plane distance of the registrations used (m)
  double flightRms = 0.0;     // RMS departure of the used frames' poses from the fitted flight (m)
};

// rest: the closed rest surface (the object's shape and pose at t = 0); frames: the
// motion frames' object points (frame 0 = t = 0); dt: the capture's frame interval;
// gravity (m/s^2) and groundNormal (unit) in world coordinates. Frames from the first one
// with fewer than 6 points on are not used; with none before it (or options.frames == 0)
// nothing is estimated. Deterministic.
InitialMotionEstimate estimateInitialMotion(const TriangleSurface& rest, const std::vector<PointCloud>& frames,
                                            double dt, const Vec3& gravity, const Vec3& groundNormal,
                                            const InitialMotionOptions& options = {});

}  // namespace softfit
