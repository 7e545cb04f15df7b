#pragma once
// Initial motion of a thrown object from the first motion frames (issue 20, item 3):
// rigid registration of the rest cloud (the object's pose at t = 0) to each of motion
// frames 1..V (point-to-point ICP), then least squares over those frames:
//   c_k = c_0 + v t_k + g t_k^2 / 2   (c = the rest cloud's centroid carried by the
//                                      registration, g the known gravity: free flight)
//   theta_k = omega t_k                (theta = rotation vector of the registration)
// with t_k = k dt. The result is the scene's "initial" velocity and angular velocity
// (about the rest shape's centre of mass, which the scene's rigid start uses).
//
// ICP is ours (nearest neighbours through Open3D's KDTreeFlann, rigid transform by
// Eigen::umeyama): Open3D 0.16's RegistrationICP collects its correspondences inside an
// OpenMP critical section, in thread order, so its sums (and bits) depend on timing.
// Pairs farther apart than `rejectFactor` x the median pair distance (at least
// `minRejectDistance`) are dropped in each iteration (partial views overlap partly).
#include <vector>

#include "observations/point_cloud.h"

namespace softfit {

struct InitialMotionOptions {
  int frames = 3;                 // V: motion frames registered (1..V); 0 = no estimate
  // Also estimate the angular velocity (else 0). Off by default: the first frames of a
  // body kicked off the floor deform, and ICP of partial views reads part of that as a
  // rotation (the bench box: 0.35 rad/s where the truth has none).
  bool angular = false;
  int maxSourcePoints = 4000;     // the rest cloud is subsampled (every k-th point) to this
  int iterations = 40;
  double rejectFactor = 3.0;
  double minRejectDistance = 0.005;  // m
};

struct InitialMotionEstimate {
  bool estimated = false;
  Vec3 velocity = Vec3::Zero();
  Vec3 angularVelocity = Vec3::Zero();
  int framesUsed = 0;
  double rmsResidual = 0.0;  // RMS pair distance of the registrations (m), over the frames used
};

// Rigid transform (R, t) with target ~= R source + t, from point-to-point ICP started at
// the centroid offset. Deterministic. `rms` (optional): RMS distance of the kept pairs.
struct RigidTransform {
  Mat3 rotation = Mat3::Identity();
  Vec3 translation = Vec3::Zero();
};
RigidTransform registerRigid(const PointMatrix& source, const PointMatrix& target,
                             const InitialMotionOptions& options = {}, double* rms = nullptr);

// rest: the object's points at t = 0 (the rest frames); frames: the motion frames' object
// points (frame 0 = t = 0); dt: capture frame interval; gravity: m/s^2. Frames without
// points are skipped; with none left (or options.frames == 0) nothing is estimated.
InitialMotionEstimate estimateInitialMotion(const PointCloud& rest, const std::vector<PointCloud>& frames, double dt,
                                    const Vec3& gravity, const InitialMotionOptions& options = {});

}  // namespace softfit
